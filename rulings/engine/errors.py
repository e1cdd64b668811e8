"""What the floor calculators say, kept translatable without Django: the error every
calculator raises for a question it cannot answer, and the notes an answer explains
itself with.

Both carry an English template with %(name)s placeholders and the values to fill in,
so the caller can translate the template (gettext) before filling it in. The engines
mark their templates with `_`, which only lets makemessages find them.
"""

from dataclasses import dataclass, field

from hands.engine.limits import STREETS


def _(template: str) -> str:
    """Marks a text for translation (makemessages finds _("...") calls); the engine
    itself keeps English. The caller translates `template` and fills in `params`."""
    return template


@dataclass(frozen=True)
class Note:
    """One sentence (or a few) of an explanation."""

    template: str  # English, with %(name)s placeholders only (never positional %s)
    # Values for the placeholders, already formatted as text where needed ("1,000").
    # Left out of the hash so that answers holding notes stay hashable.
    params: dict = field(hash=False)

    @property
    def text(self) -> str:
        return self.template % self.params


def explain(notes) -> str:
    """The English explanation the notes make: their texts in order."""
    return " ".join(note.text for note in notes)


class BadQuestion(ValueError):
    """The question is inconsistent or incomplete: `field` names the input to fix, so a
    form can show the message next to it. `template` % `params` is that message;
    `message` holds it in English."""

    def __init__(self, field: str, template: str, **params):
        self.field = field
        self.template = template
        self.params = params
        self.message = template % params
        super().__init__(f"{field}: {self.message}")


def amount_text(amount: int) -> str:
    """An amount as the notes show it: "1,200"."""
    return f"{amount:,}"


def check_street(street: str) -> None:
    if street not in STREETS:
        raise BadQuestion(
            "street",
            _("unknown street %(street)s: use one of %(streets)s"),
            street=repr(street),
            streets=", ".join(STREETS),
        )


BLINDS_WRONG = _("give the small and the big blind, 0 <= small <= big, big > 0")


def check_blinds(blinds) -> None:
    if len(blinds) != 2 or not 0 <= blinds[0] <= blinds[1] or blinds[1] <= 0:
        raise BadQuestion("blinds", BLINDS_WRONG)
