"""Import a house's own rule book from a text or Markdown file:

    manage.py import_rulebook "Casino Example" house-rules.md [--create]

Each section becomes a house rule of the venue (rulings/engine/housebook.py); a new
import replaces the rules the last one brought. Nothing of any rule book ships with
Floorman: the house imports its own."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from floorman.errors import ServiceError
from rulings import services
from tournaments.models import Venue


class Command(BaseCommand):
    help = "Import a house rule book (UTF-8 text or Markdown) into a venue's house rules."

    def add_arguments(self, parser):
        parser.add_argument("venue", help="The venue's name.")
        parser.add_argument("file", help="The rule book: a .txt or .md file in UTF-8.")
        parser.add_argument(
            "--create", action="store_true", help="Create the venue if there is none of this name."
        )

    def handle(self, *args, venue: str, file: str, create: bool, **options):
        text = _read(Path(file))
        name = " ".join(venue.split())
        if not name:
            raise CommandError("Give the venue's name.")
        try:
            with transaction.atomic():
                found = Venue.objects.filter(name__iexact=name).first()
                if found is None:
                    if not create:
                        raise CommandError(
                            f"There is no venue {name!r}; add --create to create it."
                        )
                    found = services.venue_save(
                        actor=None,
                        name=name,
                        is_default=not Venue.objects.exists(),
                    )
                    self.stdout.write(f"Created venue {found.name!r}.")
                rules = services.rulebook_import(
                    actor=None, venue_id=found.pk, text=text, source=Path(file).name
                )
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        linked = sum(1 for rule in rules if rule.tda)
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {len(rules)} rules into {found.name!r} ({linked} linked to a TDA rule)."
            )
        )


def _read(path: Path) -> str:
    if not path.is_file():
        raise CommandError(f"No such file: {path}")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CommandError(
            f"{path} is not UTF-8 text (byte {exc.start}): save it as UTF-8 text first."
        ) from exc
    if "\x00" in text or text.startswith("%PDF"):
        raise CommandError(f"{path} is not a text file: save the rule book as UTF-8 text first.")
    if not text.strip():
        raise CommandError(f"{path} is empty.")
    return text
