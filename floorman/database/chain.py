"""The audit chain's head, read under the chain lock in one statement (floorman.audit).

On PostgreSQL a function takes the chain's advisory lock and then reads the last entry.
The two cannot share one plain statement: a statement sees the database as it was when
the statement began, before it waited for the lock, and would miss the entries of the
writer that held the lock. A volatile function's statements each see what was committed
before they began (PostgreSQL's "Function Volatility Categories"), so its second statement
sees every entry committed under the lock before. One round trip instead of two; the
migration floorman/migrations/0008_audit_chain_head.py installs it.

SQLite runs one writing transaction at a time (`transaction_mode` IMMEDIATE): the head is
read as it is.
"""

FUNCTION = "floorman_audit_chain_head"

POSTGRES_INSTALL = f"""
CREATE OR REPLACE FUNCTION {FUNCTION}(lock_key bigint, OUT seq bigint, OUT hash varchar)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    SELECT e.seq, e.hash INTO seq, hash
    FROM floorman_auditentry e ORDER BY e.seq DESC LIMIT 1;
END
$$
"""
POSTGRES_REMOVE = f"DROP FUNCTION IF EXISTS {FUNCTION}(bigint)"

POSTGRES_HEAD = f"SELECT seq, hash FROM {FUNCTION}(%s)"
SQLITE_HEAD = "SELECT seq, hash FROM floorman_auditentry ORDER BY seq DESC LIMIT 1"


def install(apps, schema_editor) -> None:
    """Migration step: the head function, on PostgreSQL."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_INSTALL, params=None)


def remove(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_REMOVE, params=None)


def head(cursor, vendor: str, lock_key: int) -> tuple[int, str] | None:
    """Take the chain lock (PostgreSQL) and read the last entry's number and hash, or
    None while the log is empty."""
    if vendor == "postgresql":
        cursor.execute(POSTGRES_HEAD, [lock_key])
    else:
        cursor.execute(SQLITE_HEAD)
    row = cursor.fetchone()
    return None if row is None or row[0] is None else (row[0], row[1])
