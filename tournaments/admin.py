"""Players in the Django admin (superusers only). A change goes through the services as
it does from the player's page and the API: the duplicate check, the audit entry."""

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from floorman.errors import ServiceError
from tournaments import services
from tournaments.models import Player


class PlayerAdminForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = services.PLAYER_FIELDS
        help_texts = {
            "accessible_seat": _(
                "TDA 9: the draw and late seats give this player a wheelchair-accessible "
                "seat where a table has one."
            )
        }

    def clean(self):
        """The service's duplicate check, as a message on the form rather than an error
        page (the service checks again as it saves)."""
        data = super().clean()
        other = services.player_match(
            name=data.get("name", ""),
            birth_year=data.get("birth_year"),
            email=data.get("email", ""),
            exclude_id=self.instance.pk,
        )
        if other is not None:
            raise forms.ValidationError(
                _("Another player has this email, or this name and birth year.")
            )
        return data


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerAdminForm
    list_display = ("name", "nickname", "country", "birth_year", "accessible_seat")
    list_filter = ("accessible_seat",)
    search_fields = ("name", "nickname", "email")

    def save_model(self, request, obj, form, change):
        data = {name: form.cleaned_data[name] for name in services.PLAYER_FIELDS}
        try:
            if change:
                saved = services.player_update(actor=request.user, player_id=obj.pk, data=data)
            else:
                saved = services.player_create(actor=request.user, data=data)
        except ServiceError as error:
            # A desk saved the same person between the form's check and now: say so
            # rather than show an error page; nothing was written.
            messages.error(request, error.message)
            return
        obj.pk = saved.pk  # the admin's message and redirect name the row saved

    def has_delete_permission(self, request, obj=None) -> bool:
        # Players with entries are kept for the results; nobody deletes one here.
        return False
