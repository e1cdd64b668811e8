"""API pieces shared by all apps: token login and the audit log."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken

from floorman.models import AuditEntry
from floorman.ratelimit import LoginThrottle


class TokenObtainView(ObtainAuthToken):
    """POST {"username", "password"} → {"token"}; send it as `Authorization: Token <token>`.

    Password guessing is limited as on the login page, with one count for both
    (FLOORMAN_RATE_LOGIN per address and per username: floorman.ratelimit.LOGIN).
    """

    throttle_classes = [LoginThrottle]

    @extend_schema(
        request=inline_serializer(
            "TokenRequest",
            {"username": serializers.CharField(), "password": serializers.CharField()},
        ),
        responses=inline_serializer("TokenResponse", {"token": serializers.CharField()}),
    )
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class AuditEntrySerializer(serializers.ModelSerializer):
    # No actor for what the system does by itself.
    actor = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True, label=_("by")
    )

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "at",
            "actor",
            "action",
            "object_type",
            "object_id",
            "object_repr",
            "before",
            "after",
        ]


def valid_data(serializer_class, data) -> dict:
    """The request body checked by `serializer_class`; 400 with field messages if not."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
