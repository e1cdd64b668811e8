"""Floorman's database backends: Django's PostgreSQL and SQLite backends with two
additions the audit log needs (`floorman.database.hooks`)."""
