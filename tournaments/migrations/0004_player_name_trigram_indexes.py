"""Trigram indexes for the public seat lookup (PostgreSQL only).

The lookup matches any part of a name (LIKE '%mueller%'), which a B-tree index cannot
serve; pg_trgm's GIN index can, so a lookup stays fast with tens of thousands of
players in the database (bench/seating.py). SQLite scans, which is fine for one room.
"""

from django.db import migrations

INDEXES = (("player_name_key_trgm", "name_key"), ("player_name_plain_trgm", "name_plain"))


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in INDEXES:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON tournaments_player "
            f"USING gin (({column}::text) gin_trgm_ops)"  # Django casts: name_key::text LIKE
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _column in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_player_accessible_seat_name_keys")]

    operations = [migrations.RunPython(create, drop)]
