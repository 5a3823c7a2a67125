"""Accounts API: registration, API tokens (several named tokens per person, one per device or
script; each can expire; list them, revoke one or all) and changing one's password."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import closing, selectors, services
from accounts.exceptions import TokenNotFound
from accounts.models import ApiToken
from config.api import StrictSerializer, error_responses, schema_serializer
from config.throttling import (
    AddressScopedRateThrottle,
    AnonRateThrottle,
    PlayerRateThrottle,
    SignUpNameRateThrottle,
)

TokenSerializer = schema_serializer("Token", {
    "token": serializers.CharField(help_text=(
        "Send as `Authorization: Token <token>`. Shown only this once: only a digest is "
        "stored.")),
    "username": serializers.CharField(),
})

TokenInfoSerializer = schema_serializer("TokenInfo", {
    "id": serializers.IntegerField(),
    "name": serializers.CharField(),
    "prefix": serializers.CharField(help_text="The key's first characters."),
    "created": serializers.DateTimeField(),
    "expires": serializers.DateTimeField(allow_null=True, help_text="Null: never expires."),
    "current": serializers.BooleanField(help_text="The token this request was sent with."),
})

NAME_FIELD = {"max_length": 100, "required": False, "allow_blank": True,
              "help_text": "What the token is for (a device, a script); shown in the list."}


def password_field() -> serializers.CharField:
    return serializers.CharField(max_length=128, trim_whitespace=False)


class NewNameField(serializers.RegexField):
    """A name a person signs up with: 3-30 letters, digits, '_', '.' or '-', not starting
    with "guest-" (guests' generated names do) nor "deleted-" (deleted accounts' pseudonyms
    do)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(r"^[A-Za-z0-9_.-]{3,30}$", help_text=(
            "3-30 letters, digits, '_', '.' or '-'; not starting with 'guest-' or 'deleted-'."),
            **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        for prefix in (services.GUEST_PREFIX, closing.PSEUDONYM_PREFIX):
            if value.lower().startswith(prefix):
                raise serializers.ValidationError(
                    f"Names starting with '{prefix}' are kept for the server's own names.")
        return value


class SignUpSerializer(StrictSerializer):
    class Meta:
        ref_name = "Register"

    username = NewNameField()
    password = password_field()
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254)
    token_name = serializers.CharField(**NAME_FIELD)


# Sign-ups are counted per client address (scope "register", generous, since a school or a
# café puts many people behind one address) and per address and chosen name ("register_name",
# small), on top of the anonymous budget.
SIGN_UP_THROTTLES = [AnonRateThrottle, AddressScopedRateThrottle, SignUpNameRateThrottle]


class RegisterApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = SIGN_UP_THROTTLES
    throttle_scope = "register"

    InputSerializer = SignUpSerializer

    @extend_schema(operation_id="auth_register", request=InputSerializer,
                   responses={201: TokenSerializer, **error_responses(400, 409)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user, issued = services.user_register(**data.validated_data)
        return Response({"token": issued.key, "username": user.username},
                        status=status.HTTP_201_CREATED)


class GuestApi(APIView):
    """Play at once: a guest account with a generated name and its token (no password).

    Guests are unrated, play only bots, keep at most a few running matches, have a smaller
    request budget and are not on leaderboards; sign up with ``POST /auth/guest/convert`` to
    keep the account and its matches. An idle guest is deleted after a while."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, AddressScopedRateThrottle]
    throttle_scope = "guest"

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "GuestCreate"

        token_name = serializers.CharField(**NAME_FIELD)

    @extend_schema(operation_id="auth_guest", request=InputSerializer,
                   responses={201: TokenSerializer, **error_responses(400)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user, issued = services.guest_create(**data.validated_data)
        return Response({"token": issued.key, "username": user.username},
                        status=status.HTTP_201_CREATED)


class GuestConvertApi(APIView):
    """Sign up as the guest sending the request: the account takes the chosen name, password
    and e-mail and keeps its matches. The guest's tokens are revoked; use the one answered."""

    throttle_classes = [PlayerRateThrottle, AddressScopedRateThrottle, SignUpNameRateThrottle]
    throttle_scope = "register"

    InputSerializer = SignUpSerializer

    @extend_schema(operation_id="auth_guest_convert", request=SignUpSerializer,
                   responses={200: TokenSerializer, **error_responses(400, 409)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user, issued = services.guest_convert(user=request.user, **data.validated_data)
        return Response({"token": issued.key, "username": user.username})


class TokenApi(APIView):
    """Sign in for a new token (POST, with username and password), or revoke every token of
    the caller (DELETE)."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TokenObtain"

        username = serializers.CharField(max_length=150)
        password = password_field()
        name = serializers.CharField(**NAME_FIELD)
        expires_in_days = serializers.IntegerField(
            required=False, min_value=1, max_value=36500,
            help_text="Days until the token expires; at most (and by default) the server's "
                      "limit.")

    def _is_obtain(self) -> bool:
        # drf-spectacular builds its mock request before ``self.request`` is set.
        return getattr(getattr(self, "request", None), "method", None) == "POST"

    def get_permissions(self):
        return [AllowAny()] if self._is_obtain() else super().get_permissions()

    def get_authenticators(self):
        return [] if self._is_obtain() else super().get_authenticators()

    @extend_schema(operation_id="auth_token_obtain", request=InputSerializer,
                   responses={200: TokenSerializer, **error_responses(400)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # The Django request: sign-in limits count by its client address.
        issued = services.token_obtain(request=request._request, **data.validated_data)
        return Response({"token": issued.key, "username": issued.user.username})

    @extend_schema(operation_id="auth_token_revoke", request=None,
                   responses={204: None, **error_responses()})
    def delete(self, request):
        services.token_revoke_all(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListApi(APIView):
    @extend_schema(operation_id="auth_tokens_list",
                   responses={200: TokenInfoSerializer(many=True), **error_responses()})
    def get(self, request):
        current = request.auth if isinstance(request.auth, ApiToken) else None
        return Response(selectors.token_list(user=request.user, current=current))


class TokenDetailApi(APIView):
    @extend_schema(operation_id="auth_tokens_revoke", request=None,
                   responses={204: None, **error_responses(404)})
    def delete(self, request, token_id: int):
        services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CurrentTokenApi(APIView):
    @extend_schema(operation_id="auth_tokens_revoke_current", request=None,
                   responses={204: None, **error_responses(404)})
    def delete(self, request):
        """Revoke the token this request was sent with (sign out on this device only)."""
        if not isinstance(request.auth, ApiToken):
            raise TokenNotFound(_("This request was not sent with an API token."))
        services.token_revoke(user=request.user, token_id=request.auth.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeApi(APIView):
    """Change the caller's password: the current one confirms it (a wrong one counts towards
    the sign-in limits). Every other token and session of the account ends; the token (or
    session) of this request stays signed in."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PasswordChange"

        current_password = password_field()
        new_password = password_field()

    @extend_schema(operation_id="me_password_change", request=InputSerializer,
                   responses={204: None, **error_responses(400, 403)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        closing.password_confirm(request=request._request, user=request.user,
                                 password=data.validated_data["current_password"])
        token = request.auth if isinstance(request.auth, ApiToken) else None
        # Token calls have no session (config.token_calls); a session-authenticated call keeps
        # its own.
        session = None if token is not None else getattr(request._request, "session", None)
        services.password_set(user=request.user, password=data.validated_data["new_password"],
                              keep_token=token,
                              keep_session=session.session_key if session is not None else None)
        return Response(status=status.HTTP_204_NO_CONTENT)
