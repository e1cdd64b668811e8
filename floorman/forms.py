"""Forms of the floorman core's own pages: staff accounts and keys for other tools. They
check the shape of the input (and that a password was typed the same twice); the rules
(a free username, Django's password validators, the last director) are the services'
business."""

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from floorman.keys import NAME_MAX_LENGTH as KEY_NAME_MAX_LENGTH
from floorman.models import ApiKeyScope
from floorman.roles import ALL_ROLES
from floorman.staff import ROLE_LABELS

NAME_MAX_LENGTH = 150

ROLE_CHOICES = [(role, ROLE_LABELS[role]) for role in ALL_ROLES]


def _roles_field() -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=_("Roles"),
        choices=ROLE_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


def _password_field(label, *, required: bool, autocomplete: str, help_text: str = ""):
    return forms.CharField(
        label=label,
        required=required,
        strip=False,
        max_length=4096,  # hashing a megabyte would be a denial of service
        help_text=help_text,
        widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}),
    )


def _same_twice(form: forms.Form, first: str, second: str) -> None:
    data = form.cleaned_data
    if first in data and second in data and data[first] != data[second]:
        form.add_error(second, _("The two passwords differ."))


class AccountCreateForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=NAME_MAX_LENGTH,
        validators=[UnicodeUsernameValidator()],
        help_text=_("Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    first_name = forms.CharField(label=_("First name"), max_length=NAME_MAX_LENGTH, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=NAME_MAX_LENGTH, required=False)
    roles = _roles_field()
    password1 = _password_field(
        _("Initial password"),
        required=False,
        autocomplete="new-password",
        help_text=_("Leave empty to have one generated and shown once."),
    )
    password2 = _password_field(
        _("Initial password again"), required=False, autocomplete="new-password"
    )

    def clean(self):
        _same_twice(self, "password1", "password2")
        return self.cleaned_data


class RolesForm(forms.Form):
    roles = _roles_field()


class PasswordChangeForm(forms.Form):
    old_password = _password_field(
        _("Current password"), required=True, autocomplete="current-password"
    )
    new_password1 = _password_field(_("New password"), required=True, autocomplete="new-password")
    new_password2 = _password_field(
        _("New password again"), required=True, autocomplete="new-password"
    )

    def clean(self):
        _same_twice(self, "new_password1", "new_password2")
        return self.cleaned_data


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs=None):
        super().__init__(attrs=attrs, format="%Y-%m-%dT%H:%M")


class ApiKeyForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=KEY_NAME_MAX_LENGTH,
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
