"""Read The Tournament Director's save files and say what each holds (issue 22):

    manage.py td3_read FILE_OR_FOLDER...

For each `.tdt` file (a folder: every one inside it, at any depth): its version, title,
league and season, and the players, entries, re-entries, add-ons, bust-outs and places an
import would bring in; a file that cannot be read, with where reading stopped. It reads
only: nothing is saved and nothing in a file is ever run (tournaments.engine.td3). The
import itself comes with issue 22's review page."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.engine import td3


def save_files(paths: list[str]) -> list[Path]:
    found = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix.lower() == ".tdt")
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"{given}: no such file or folder.")
    return found


class Command(BaseCommand):
    help = "Read Tournament Director (.tdt) save files and summarise each; saves nothing."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="Save files, or folders holding them.")

    def handle(self, *args, paths: list[str], **options):
        files = save_files(paths)
        refused = 0
        for path in files:
            try:
                found = td3.summary(td3.parse(head(path)))
            except OSError as error:
                refused += 1
                self.stdout.write(self.style.ERROR(f"{path}: {error.strerror or error}"))
                continue
            except td3.Td3Error as error:
                refused += 1
                where = f" (line {error.line}, column {error.column})" if error.line else ""
                self.stdout.write(self.style.ERROR(f"{path}: {error}{where}"))
                continue
            self.stdout.write(f"{path}: {line(found)}")
        style = self.style.WARNING if refused else self.style.SUCCESS
        self.stdout.write(style(f"{len(files) - refused} of {len(files)} files read."))


def head(path: Path) -> bytes:
    """The file, or as much of it as shows it is too large (td3.parse refuses it): a
    huge file is never read whole into memory."""
    with path.open("rb") as file:
        return file.read(td3.MAX_BYTES + 1)


def line(found: td3.Summary) -> str:
    league = " / ".join(part for part in (found.league, found.season) if part)
    return (
        f"TD {found.version}, {found.title!r}{f' ({league})' if league else ''}: "
        f"{found.players} players, {found.entries} entries ({found.reentries} re-entries), "
        f"{found.addons} add-ons, {found.bust_outs} bust-outs, {len(found.places)} places"
        f"{'' if found.finished else ', not finished'}"
    )
