"""Django's PostgreSQL backend with Floorman's additions (floorman.database.hooks)."""

from django.db.backends.postgresql import base
from django.db.backends.postgresql.operations import DatabaseOperations as BaseOperations

from floorman.database.hooks import BeforeCommitMixin, GuardedFlushMixin


class DatabaseOperations(GuardedFlushMixin, BaseOperations):
    pass


class DatabaseWrapper(BeforeCommitMixin, base.DatabaseWrapper):
    ops_class = DatabaseOperations
