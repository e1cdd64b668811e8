"""Forms of the event pages: a copy of an event, an event template saved, an event
started from a template. They check the shape of the input; the rules are the services'
(prizes.services.events)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from floorman.names import validate_visible_name
from tournaments.forms import DateTimeLocalInput, PageForm
from tournaments.models import start_at_plausible

NAME_MAX = 120


def _name(label, help_text="") -> forms.CharField:
    return forms.CharField(
        label=label, max_length=NAME_MAX, validators=[validate_visible_name], help_text=help_text
    )


class EventNewForm(PageForm):
    """A new event made from another or from a template: what it does not take."""

    name = _name(_("Name"))
    start_at = forms.DateTimeField(
        label=_("Start time"),
        widget=DateTimeLocalInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        validators=[start_at_plausible],
    )
    tables = forms.BooleanField(
        label=_("Take the tables too"),
        required=False,
        initial=True,
        help_text=_("Table numbers, seats, accessible and blocked seats; nobody is seated."),
    )


class EventTemplateSaveForm(PageForm):
    name = _name(_("Template name"), _("A template of the same name is replaced."))

    def __init__(self, *args, **kwargs):
        # On one page with the copy's form: ids of its own, so each label has its field.
        kwargs.setdefault("auto_id", "id_template_%s")
        super().__init__(*args, **kwargs)
