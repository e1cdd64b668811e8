"""The core's rules as pure functions: no Django, tested without a database."""
