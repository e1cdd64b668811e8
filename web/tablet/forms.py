"""The tablet's chip count screen (issue 18): chips per seat of the table."""

from django import forms

from hands.forms import seat_chips, seat_chips_fields


class TabletCountForm(forms.Form):
    """Each seat's chips as counted ("chips_<seat>"); a seat left blank is not counted.
    0 is let through to the service, which says to bust the player instead."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seat_chips_fields(self, "chips")

    def counts(self) -> dict[int, int]:
        return seat_chips(self.cleaned_data, "chips")
