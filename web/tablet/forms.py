"""The tablet's own forms: the chip count screen (issue 18), chips per seat of the table;
the floor's ruling on dodged blinds (issue 19)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from hands.forms import seat_chips, seat_chips_fields, seat_field
from rulings.engine import dodged_blinds as dodges


class TabletCountForm(forms.Form):
    """Each seat's chips as counted ("chips_<seat>"); a seat left blank is not counted.
    0 is let through to the service, which says to bust the player instead."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seat_chips_fields(self, "chips")

    def counts(self) -> dict[int, int]:
        return seat_chips(self.cleaned_data, "chips")


class DodgedBlindsForm(forms.Form):
    """TDA 33, 71-B; older TDA 22: the seat whose player dodged the blinds, and which."""

    seat = seat_field(label=_("Seat"))
    blinds = forms.ChoiceField(
        label=_("Blinds dodged"),
        choices=[(blinds, blinds) for blinds in dodges.BLINDS],
        error_messages={
            "required": _("Say which blinds were dodged: the small, the big or both."),
            "invalid_choice": _("Say which blinds were dodged: the small, the big or both."),
        },
    )
