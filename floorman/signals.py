"""Signals of the core, for apps above it that must hear of a change without the core
importing them (docs/architecture.md: the layers).

`audit_committed(sender=AuditEntry, entries=[...])`: audit entries whose transaction has
committed, numbered and chained (floorman.audit). Sent once the commit is done, never for
a change rolled back, in the order the entries were recorded. The outbound webhooks
listen (webhooks.apps); a receiver must be cheap when it has nothing to do, as it runs
after every commit, in the request that made it.
"""

from django.dispatch import Signal

audit_committed = Signal()
