"""Import The Tournament Director's save files (issue 22, item 8):

    manage.py import_td3 FILE_OR_FOLDER... [--contacts] [--template] [--dry-run]

Each `.tdt` file (a folder: every one inside it, at any depth) through the same service
as the review page (prizes.services.imports.td3_import), its players matched without
asking: by the link from an earlier import, then by the same name, else new. A finished
event comes in as history; with --template every file also becomes an event template
(an unfinished one only so, else it is skipped). One line per file, totals at the end;
one bad file never stops the others, and the command fails if any did. --dry-run does
it all and rolls every file back."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from floorman.errors import ServiceError
from prizes.services.imports import file_read, td3_import
from tournaments.management.commands.td3_read import head, save_files


class DryRun(Exception):
    """Raised inside the transaction to roll back a file imported for --dry-run."""


class Command(BaseCommand):
    help = "Import Tournament Director (.tdt) save files: finished events as history."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="Save files, or folders holding them.")
        parser.add_argument(
            "--contacts", action="store_true", help="Bring the players' email and phone."
        )
        parser.add_argument(
            "--template", action="store_true", help="Also save each file as an event template."
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Import nothing: say what would come in."
        )

    def handle(self, *args, paths, contacts, template, dry_run, **options):
        files = save_files(paths)
        tally = {"imported": 0, "already": 0, "skipped": 0, "failed": 0}
        for path in files:
            outcome, text = self._one(path, contacts=contacts, template=template, dry_run=dry_run)
            tally[outcome] += 1
            style = {"failed": self.style.ERROR, "skipped": self.style.WARNING}.get(outcome, str)
            self.stdout.write(style(f"{path}: {text}"))
        verb = "would be imported" if dry_run else "imported"
        self.stdout.write(
            f"{len(files)} files: {tally['imported']} {verb}, {tally['already']} imported "
            f"before, {tally['skipped']} skipped, {tally['failed']} failed."
        )
        if tally["failed"]:
            raise CommandError(f"{tally['failed']} of {len(files)} files could not be imported.")

    def _one(self, path, *, contacts: bool, template: bool, dry_run: bool) -> tuple[str, str]:
        try:
            data = head(path)
        except OSError as error:
            return "failed", str(error.strerror or error)
        try:
            event = file_read(data)
            if not event.finished and not template:
                return "skipped", (
                    "not finished (not every player has a place): skipped; "
                    "--template keeps its structure and payouts."
                )
            options = {"history": event.finished, "template": template, "contacts": contacts}
            try:
                with transaction.atomic():
                    done = td3_import(actor=None, data=data, file_name=path.name, **options)
                    if dry_run:
                        raise DryRun
            except DryRun:
                pass
        except ServiceError as error:
            if error.code == "td3_already_imported":
                return "already", f"already imported: {error.message}"
            return "failed", error.message
        return "imported", self._line(done, dry_run=dry_run)

    @staticmethod
    def _line(done, *, dry_run: bool) -> str:
        record, event = done.record, done.event
        made = []
        if record.tournament_id:
            made.append(
                f"as event {'(new)' if dry_run else record.tournament_id} "
                f"“{record.tournament.name}”"
            )
        if record.template_id:
            made.append(f"as template “{record.template.name}”")
        league = " / ".join(part for part in (event.league, event.season) if part)
        return (
            f"{'would be imported' if dry_run else 'imported'} {' and '.join(made)}"
            f"{f' ({league})' if league else ''}: {len(event.people)} players, "
            f"{len(event.entries)} entries, {event.rebuys} rebuys, {event.addons} add-ons, "
            f"{event.busts} busts, {len(event.places)} places"
        )
