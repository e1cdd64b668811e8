"""Check the audit log's hash chain from the first entry to the last:

    manage.py audit_verify

Prints the verdict and the last entry's number and hash, and exits with 0 when every
entry is there and unchanged, 1 at the first entry changed, missing or out of line.
Entries taken off the end leave no trace in the chain: compare the number and hash
printed with those of an earlier run to see that none were."""

from django.core.management.base import BaseCommand, CommandError

from floorman.audit import audit_chain_verdict, audit_chain_verify


class Command(BaseCommand):
    help = "Check the audit log's hash chain: every entry there and unchanged."

    def handle(self, *args, **options):
        report = audit_chain_verify()
        if not report.holds:
            raise CommandError(audit_chain_verdict(report))
        self.stdout.write(audit_chain_verdict(report))
        self.stdout.write(f"Last entry: no. {report.head_seq}, hash {report.head_hash}")
