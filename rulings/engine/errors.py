"""What the floor calculators say, kept translatable without Django: the error every
calculator raises for a question it cannot answer, and the notes an answer explains
itself with.

Both carry an English template with %(name)s placeholders and the values to fill in,
so the caller can translate the template (gettext) before filling it in. The engines
mark their templates with `_`, which only lets makemessages find them.
"""

from dataclasses import dataclass, field


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
