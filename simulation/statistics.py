"""The planner's statistics, kept as a PostgreSQL server with autovacuum keeps them.

A server analyzes a table once enough of it has changed since the last time (by
default 50 rows and a tenth of the table: autovacuum's analyze), so that the planner
knows how many rows an event has. The simulation fills a whole event in minutes; on a
server whose autovacuum is off the planner would go on believing the tables hold the
few rows of the start, and pick plans that read an event's every entry to find one
(issue 20: 2 ms instead of 0.03 ms for an entry by its id at 10,000 entries). There the
simulation analyzes Floorman's tables itself, by autovacuum's own rule, between rounds.
"""

from django.db import connection

# autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults
THRESHOLD = 50
SCALE = 0.1

STALE_SQL = """
SELECT relname FROM pg_stat_user_tables
WHERE relname = ANY(%s) AND n_mod_since_analyze > %s + %s * n_live_tup
ORDER BY relname
"""


def autovacuum_off() -> bool:
    """Whether this database's server leaves the analyzing to us (PostgreSQL only)."""
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return cursor.fetchone()[0] == "off"


def stale_tables_analyze() -> list[str]:
    """Analyze Floorman's tables that autovacuum would analyze now; returns their names."""
    tables = connection.introspection.django_table_names(only_existing=True)
    with connection.cursor() as cursor:
        cursor.execute(STALE_SQL, [tables, THRESHOLD, SCALE])
        stale = [name for (name,) in cursor.fetchall()]
        if stale:
            names = ", ".join(connection.ops.quote_name(name) for name in stale)
            cursor.execute(f"ANALYZE {names}")
    return stale
