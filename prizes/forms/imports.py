"""Forms of the Tournament Director import (issue 22): the upload, and the review's
choices (a player for each of the file's people, history, template, contact data)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from prizes.services.imports import MAX_BYTES
from tournaments.forms import PageForm
from tournaments.models import Player

NEW = "new"


class Td3UploadForm(PageForm):
    file = forms.FileField(
        label=_("Tournament Director file (.tdt)"),
        help_text=_("A save file of The Tournament Director 3.0 to 3.7."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(limit)s MB.") % {"limit": MAX_BYTES // 1_000_000}
            )
        return upload


class Td3ReviewForm(PageForm):
    """One choice per person of the file (`player_<n>`: their proposed player or a new
    one) and a player's number to pick another (`other_<n>`), then what to import."""

    history = forms.BooleanField(label=_("Import the event as history"), required=False)
    template = forms.BooleanField(label=_("Save it as an event template"), required=False)
    contacts = forms.BooleanField(
        label=_("Import contact data (email, phone) for new players"), required=False
    )

    def __init__(self, *args, proposals, people, finished: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.people = people
        if not finished:
            del self.fields["history"]
        for index, (person, proposal) in enumerate(zip(people, proposals, strict=True)):
            choices = [(NEW, _("New player"))]
            if proposal.player is not None:
                label = (
                    _("%(name)s (no. %(id)s), by the earlier import")
                    if proposal.how == "link"
                    else _("%(name)s (no. %(id)s), same name")
                )
                choices.insert(
                    0,
                    (
                        str(proposal.player.pk),
                        label % {"name": proposal.player.name, "id": proposal.player.pk},
                    ),
                )
            self.fields[f"player_{index}"] = forms.ChoiceField(
                label=person.name, choices=choices, initial=choices[0][0]
            )
            self.fields[f"other_{index}"] = forms.IntegerField(
                label=_("or the player no."), required=False, min_value=1
            )

    def rows(self):
        return [
            (person, self[f"player_{index}"], self[f"other_{index}"])
            for index, person in enumerate(self.people)
        ]

    def clean(self):
        data = super().clean()
        if not data.get("history") and not data.get("template"):
            raise forms.ValidationError(_("Import the event as history, as a template, or both."))
        others = {
            index: data.get(f"other_{index}")
            for index in range(len(self.people))
            if data.get(f"other_{index}")
        }
        known = set(Player.objects.filter(pk__in=others.values()).values_list("pk", flat=True))
        for index, pk in others.items():
            if pk not in known:
                self.add_error(f"other_{index}", _("No player with this number."))
        return data

    def chosen(self) -> dict[str, int | None]:
        """{file id: player id or None for a new player}."""
        found = {}
        for index, person in enumerate(self.people):
            other = self.cleaned_data.get(f"other_{index}")
            picked = self.cleaned_data.get(f"player_{index}")
            found[person.file_id] = other or (None if picked == NEW else int(picked))
        return found
