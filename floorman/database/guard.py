"""The audit table is append-only: the database itself refuses UPDATE, DELETE and, on
PostgreSQL, TRUNCATE on it (installed by floorman/migrations/0006_audit_append_only.py).

On SQLite the guard is a pair of triggers. Django's SQLite schema editor rebuilds a table
for most changes to it, and a rebuilt table loses its triggers: a later migration that
alters AuditEntry must install them again (floorman/tests/test_audit_chain.py fails
without them).
"""

from contextlib import contextmanager

TABLE = "floorman_auditentry"
MESSAGE = "the audit log is append-only"

POSTGRES_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION floorman_audit_refuse() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}: % refused', TG_OP USING ERRCODE = 'restrict_violation';
    END
    $$
    """,
    f"""
    CREATE TRIGGER floorman_audit_append_only BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION floorman_audit_refuse()
    """,
    f"""
    CREATE TRIGGER floorman_audit_no_truncate BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION floorman_audit_refuse()
    """,
]
POSTGRES_REMOVE = [
    f"DROP TRIGGER IF EXISTS floorman_audit_no_truncate ON {TABLE}",
    f"DROP TRIGGER IF EXISTS floorman_audit_append_only ON {TABLE}",
    "DROP FUNCTION IF EXISTS floorman_audit_refuse()",
]
POSTGRES_TRIGGERS = ("floorman_audit_append_only", "floorman_audit_no_truncate")

SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER floorman_audit_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused'); END
    """,
    f"""
    CREATE TRIGGER floorman_audit_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused'); END
    """,
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS floorman_audit_no_update",
    "DROP TRIGGER IF EXISTS floorman_audit_no_delete",
]
SQLITE_TRIGGERS = ("floorman_audit_no_update", "floorman_audit_no_delete")


def install(apps, schema_editor) -> None:
    """Migration step: put the guard on the audit table."""
    vendor = schema_editor.connection.vendor
    for sql in POSTGRES_INSTALL if vendor == "postgresql" else SQLITE_INSTALL:
        schema_editor.execute(sql, params=None)


def remove(apps, schema_editor) -> None:
    """Migration step backwards: take the guard off."""
    vendor = schema_editor.connection.vendor
    for sql in POSTGRES_REMOVE if vendor == "postgresql" else SQLITE_REMOVE:
        schema_editor.execute(sql, params=None)


def installed(connection) -> list[str]:
    """The guard's triggers present on the audit table."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
                " AND tgrelid = to_regclass(%s) ORDER BY tgname",
                [TABLE],
            )
        else:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s"
                " ORDER BY name",
                [TABLE],
            )
        return [name for (name,) in cursor.fetchall()]


@contextmanager
def lifted(connection):
    """The guard off for the rest of the caller's transaction, then on again: for Django's
    flush, which empties every table. The caller holds the transaction open throughout,
    so no other session ever sees the table unguarded."""
    present = installed(connection)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for name in present:
                cursor.execute(f"ALTER TABLE {TABLE} DISABLE TRIGGER {name}")
        else:
            for sql in SQLITE_REMOVE:
                cursor.execute(sql)
    yield
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for name in present:
                cursor.execute(f"ALTER TABLE {TABLE} ENABLE TRIGGER {name}")
        elif present:
            for sql in SQLITE_INSTALL:
                cursor.execute(sql)
