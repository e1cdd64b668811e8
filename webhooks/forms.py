"""The director's endpoint form. The service checks the URL's addresses; the form
only the shape."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import PageForm
from webhooks.engine.addresses import URL_MAX_LENGTH
from webhooks.labels import TYPE_CHOICES
from webhooks.services import DESCRIPTION_MAX_LENGTH


class EndpointForm(PageForm):
    url = forms.CharField(
        label=_("URL"),
        max_length=URL_MAX_LENGTH,
        help_text=_("The receiver's address, http:// or https://. Redirects are not followed."),
    )
    description = forms.CharField(
        label=_("Description"), max_length=DESCRIPTION_MAX_LENGTH, required=False
    )
    event_types = forms.MultipleChoiceField(
        label=_("Event types"), choices=TYPE_CHOICES, widget=forms.CheckboxSelectMultiple
    )
    active = forms.BooleanField(label=_("Active"), required=False, initial=True)
