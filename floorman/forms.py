"""Forms of the floorman core's own pages. They check the shape of the input; the rules
are the services' business."""

from django import forms
from django.utils.translation import gettext_lazy as _

from floorman.keys import NAME_MAX_LENGTH
from floorman.models import ApiKeyScope


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs=None):
        super().__init__(attrs=attrs, format="%Y-%m-%dT%H:%M")


class ApiKeyForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=NAME_MAX_LENGTH,
        help_text=_("The tool that uses the key, e.g. “Lobby screen of the bar”."),
    )
    scope = forms.ChoiceField(
        label=_("Scope"),
        choices=ApiKeyScope.choices,
        initial=ApiKeyScope.PUBLIC,
        widget=forms.RadioSelect,
        help_text=_(
            "Public data: what anybody may read. Read everything: every page of data staff "
            "may read, no changes. Floor actions: also busts, seating, the clock, tablets, "
            "incidents and penalties. Director: everything a director may do."
        ),
    )
    expires_at = forms.DateTimeField(
        label=_("Expires"),
        required=False,
        widget=DateTimeLocalInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text=_("Empty: the key works until it is revoked."),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")  # labels sit above their fields
        super().__init__(*args, **kwargs)
