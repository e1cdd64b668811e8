"""The flight pages' forms: their shape only; the rules are the services'."""

from django import forms
from django.utils.translation import gettext_lazy as _

from floorman.names import validate_visible_name
from tournaments.forms import DateTimeLocalInput, PageForm
from tournaments.models import MAX_CHIPS, start_at_plausible

FLIGHT_NAME_MAX = 20


class FlightAddForm(PageForm):
    flight_name = forms.CharField(
        label=_("Flight"),
        max_length=FLIGHT_NAME_MAX,
        validators=[validate_visible_name],
        help_text=_("For example Day 1A."),
    )
    start_at = forms.DateTimeField(
        label=_("Start time"),
        widget=DateTimeLocalInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        validators=[start_at_plausible],
    )


class BagForm(PageForm):
    entry = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    chips = forms.IntegerField(label=_("Chips"), min_value=1, max_value=MAX_CHIPS)


class BagsConfirmForm(PageForm):
    accept_difference = forms.BooleanField(label=_("Accept the difference"), required=False)
    note = forms.CharField(
        label=_("Note"),
        max_length=300,
        required=False,
        help_text=_("Why the difference stands (a chip found, a miscount, …)."),
    )


class TabletBagForm(forms.Form):
    """A bag counted on the table's tablet: the seat (on the tablet's own table) and the
    chips."""

    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=99)
    chips = forms.IntegerField(label=_("Chips"), min_value=1, max_value=MAX_CHIPS)
