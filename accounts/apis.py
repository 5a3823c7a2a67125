"""Accounts API: registration and API tokens."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from accounts import services
from config.api import StrictSerializer, error_responses, schema_serializer

TokenSerializer = schema_serializer("Token", {
    "token": serializers.CharField(help_text="Send as `Authorization: Token <token>`."),
    "username": serializers.CharField(),
})


class RegisterApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, ScopedRateThrottle]
    throttle_scope = "register"

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "Register"

        username = serializers.RegexField(r"^[A-Za-z0-9_.-]{3,30}$", help_text=(
            "3-30 letters, digits, '_', '.' or '-'."))
        password = serializers.CharField(max_length=128, trim_whitespace=False)
        email = serializers.EmailField(required=False, allow_blank=True, max_length=254)

    @extend_schema(operation_id="auth_register", request=InputSerializer,
                   responses={201: TokenSerializer, **error_responses(400, 409)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user, token = services.user_register(**data.validated_data)
        return Response({"token": token.key, "username": user.username},
                        status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    """Obtain (POST, with username and password) or revoke (DELETE) the caller's API token."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TokenObtain"

        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, trim_whitespace=False)

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
        token = services.token_obtain(**data.validated_data)
        return Response({"token": token.key, "username": token.user.username})

    @extend_schema(operation_id="auth_token_revoke", request=None,
                   responses={204: None, **error_responses()})
    def delete(self, request):
        services.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

