"""What Floorman adds to Django's database backends.

Work that must run last in a transaction (`before_commit`). The audit log's hash chain is
appended under one lock for the whole database (floorman.audit). Taken in the middle of a
service, that lock would be held while the service goes on to lock seats, the clock and
other rows, and two services could each wait for what the other holds. So an entry is
appended just before its transaction commits, when the service has taken every other lock
it needs: the chain lock is always the last lock, held only for the commit.

Django's flush (`manage.py flush`, and the test runner between transactional tests) empties
every table, the append-only audit table included: it lifts the audit table's guard for
its own transaction (floorman.database.guard). Nothing else does.
"""

from django.db import transaction

from floorman.database import guard


def opened_by_test_case_only(connection) -> bool:
    """Whether the atomic blocks open on `connection` are all a test case's own: the one
    transaction pytest-django's `db` (Django's TestCase underneath) wraps a test in and
    rolls back, never committing it. Never so in production.

    Django offers no public way to tell such a block from one the code opened (checked
    against Django 5.2): it is an ordinary `transaction.atomic()`, and `in_atomic_block`,
    `savepoint_ids` and `atomic_blocks` look the same either way; pytest-django marks
    nothing of its own. Django itself tells them apart by the private flag
    `Atomic._from_testcase`, which TestCase sets on the blocks it opens
    (django/test/testcases.py) and durable blocks read (django/db/transaction.py). So do
    we, here only; floorman/tests/test_audit_chain.py fails loudly if Django renames or
    drops it.
    """
    blocks = connection.atomic_blocks
    return bool(blocks) and all(getattr(block, "_from_testcase", False) for block in blocks)


class BeforeCommitMixin:
    """Callbacks run inside the transaction just before it commits.

    `before_commit(func, item)`: `func` is called once per transaction with every item
    given with it, in the order given (the audit chain appends a transaction's entries in
    one statement). Different functions run in the order each was first given.

    Like Django's on_commit, an item given inside a savepoint that is rolled back is
    dropped, and so are all of them when the transaction rolls back. Outside a transaction
    `func([item])` runs at once, in a transaction of its own.

    Under a test case (pytest-django's `db`, Django's TestCase) the test's own transaction
    is never committed; the outermost block the code opened stands for the transaction
    there, as it does for Django's durable blocks: its callbacks run when it ends
    (`opened_by_test_case_only` tells the test's blocks apart).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.run_before_commit = []

    def _code_in_transaction(self) -> bool:
        return self.in_atomic_block and not opened_by_test_case_only(self)

    def before_commit(self, func, item) -> None:
        if self._code_in_transaction():
            self.run_before_commit.append((set(self.savepoint_ids), func, item))
        elif self.in_atomic_block:  # directly in a test's transaction
            func([item])
        else:
            with transaction.atomic(using=self.alias):
                func([item])

    def _run_before_commit_hooks(self) -> None:
        while self.run_before_commit:
            func = self.run_before_commit[0][1]
            items = [item for _sids, f, item in self.run_before_commit if f is func]
            self.run_before_commit = [h for h in self.run_before_commit if h[1] is not func]
            func(items)

    def commit(self):
        try:
            self._run_before_commit_hooks()
        except Exception:
            # Atomic rolls back after a DatabaseError only; nothing half-done may commit.
            self.run_before_commit = []
            self.rollback()
            raise
        super().commit()

    def savepoint_commit(self, sid):
        # The outermost block the code opened ends inside a test's transaction.
        if self.in_atomic_block and opened_by_test_case_only(self):
            self._run_before_commit_hooks()
        super().savepoint_commit(sid)

    def savepoint_rollback(self, sid):
        super().savepoint_rollback(sid)
        self.run_before_commit = [hook for hook in self.run_before_commit if sid not in hook[0]]

    def rollback(self):
        self.run_before_commit = []
        super().rollback()

    def close(self):
        self.run_before_commit = []
        super().close()


class GuardedFlushMixin:
    """Operations whose flush lifts the audit table's guard for its own transaction."""

    def execute_sql_flush(self, sql_list):
        with transaction.atomic(using=self.connection.alias):
            with guard.lifted(self.connection):
                super().execute_sql_flush(sql_list)
