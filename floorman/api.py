"""API pieces shared by all apps: token login, the audit log, API keys."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from floorman import keys, tokens
from floorman.models import ApiKey, ApiKeyScope, AuditEntry
from floorman.parsers import JSONParser
from floorman.ratelimit import LoginThrottle
from floorman.roles import MANAGE_API_KEYS, NotByApiKey, role_permission


class TokenObtainView(ObtainAuthToken):
    """POST {"username", "password"} → {"token"}; send it as `Authorization: Token <token>`.
    The token ends API_TOKEN_TTL after its last use; then log in again for a new one.

    Password guessing is limited as on the login page, with one count for both
    (FLOORMAN_RATE_LOGIN per address and per username: floorman.ratelimit.LOGIN).
    """

    throttle_classes = [LoginThrottle]
    # ObtainAuthToken names REST framework's parsers: JSON only, read by Floorman's (issues
    # 15 and 22).
    parser_classes = [JSONParser]

    @extend_schema(
        request=inline_serializer(
            "TokenRequest",
            {"username": serializers.CharField(), "password": serializers.CharField()},
        ),
        responses=inline_serializer("TokenResponse", {"token": serializers.CharField()}),
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = tokens.token_issue(user=serializer.validated_data["user"])
        return Response({"token": token.key})


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


# --- API keys for other tools (floorman.keys) --------------------------------------------


class ApiKeySerializer(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True, label=_("created by")
    )
    revoked_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True, label=_("revoked by")
    )

    class Meta:
        model = ApiKey
        fields = [
            "id",
            "name",
            "scope",
            "prefix",
            "created_by",
            "created_at",
            "expires_at",
            "last_used_at",
            "revoked_at",
            "revoked_by",
        ]
        read_only_fields = fields


class ApiKeyCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=keys.NAME_MAX_LENGTH)
    scope = serializers.ChoiceField(choices=ApiKeyScope.choices)
    expires_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text=_("Empty: the key does not expire.")
    )


class NewApiKeySerializer(ApiKeySerializer):
    key = serializers.CharField(
        read_only=True,
        help_text=_("The key itself, “<prefix>.<secret>”: shown this once, stored nowhere."),
    )

    class Meta(ApiKeySerializer.Meta):
        fields = [*ApiKeySerializer.Meta.fields, "key"]
        read_only_fields = fields


# Directors only, and never with a key: a key does not make or revoke keys.
KEY_MANAGERS = [role_permission(*MANAGE_API_KEYS), NotByApiKey]


class ApiKeyListView(GenericAPIView):
    """Keys for other tools: `Authorization: Api-Key <key>`, acting by their scope."""

    permission_classes = KEY_MANAGERS
    serializer_class = ApiKeySerializer

    def get_queryset(self):
        return keys.api_keys()

    @extend_schema(responses=ApiKeySerializer(many=True))
    def get(self, request):
        """Every key, newest first: revoked and expired ones too."""
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(ApiKeySerializer(page, many=True).data)

    @extend_schema(request=ApiKeyCreateSerializer, responses={201: NewApiKeySerializer})
    def post(self, request):
        """Make a key. The answer holds the key itself, this once: keep it safe."""
        data = valid_data(ApiKeyCreateSerializer, request.data)
        made = keys.api_key_create(actor=request.user, **data)
        body = {**ApiKeySerializer(made.key).data, "key": made.secret}
        # The secret must not stay in any cache on the way.
        return Response(body, status=status.HTTP_201_CREATED, headers={"Cache-Control": "no-store"})


class ApiKeyRevokeView(GenericAPIView):
    permission_classes = KEY_MANAGERS
    serializer_class = ApiKeySerializer

    @extend_schema(request=None, responses=ApiKeySerializer)
    def post(self, request, key_id: int):
        """Revoke a key: it is refused (401) from its next request on."""
        key = keys.api_key_revoke(actor=request.user, key_id=key_id)
        return Response(ApiKeySerializer(key).data)
