"""The tablet's chip count screen (issue 18): chips per seat of the table."""

from django import forms
from django.utils.translation import gettext_lazy as _

from hands.forms import SEAT_NUMBERS
from tournaments.models import MAX_CHIPS


class TabletCountForm(forms.Form):
    """Each seat's chips as counted ("chips_<seat>"); a seat left blank is not counted.
    0 is let through to the service, which says to bust the player instead."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEAT_NUMBERS:
            self.fields[f"chips_{seat}"] = forms.IntegerField(
                label=_("Chips in seat %(seat)s") % {"seat": seat},
                min_value=0,
                max_value=MAX_CHIPS,
                required=False,
                error_messages={
                    "invalid": _("Chips are a whole number."),
                    "min_value": _("Chips cannot be negative."),
                    "max_value": _("That is more chips than a tournament has."),
                },
            )

    def counts(self) -> dict[int, int]:
        data = self.cleaned_data
        return {
            seat: data[f"chips_{seat}"]
            for seat in SEAT_NUMBERS
            if data.get(f"chips_{seat}") is not None
        }
