"""The account's API: forgotten passwords, closing one's account, and data exports."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.apis import password_field
from accounts.exceptions import GuestNotAllowed
from accounts.models import DataExport
from config.api import StrictSerializer, error_responses, schema_serializer
from config.throttling import (
    AddressScopedRateThrottle,
    AnonRateThrottle,
    FieldRateThrottle,
    PlayerRateThrottle,
    ScopedRateThrottle,
)
from games.lifecycle import closing, export, recovery

ForgotSerializer = schema_serializer("PasswordForgotAnswer", {
    "message": serializers.CharField(help_text=(
        "The same whether or not an account has the address.")),
})


class ForgotEmailRateThrottle(FieldRateThrottle):
    """Reset mails asked for one address, from anywhere (a mailbox is not flooded)."""

    scope = "password_forgot_email"
    field = "email"
    per_address = False


class PasswordForgotApi(APIView):
    """Ask for a mail with a link that chooses a new password. The answer is the same whether
    or not an account has this address: a mail goes to each account that does (in its
    language), none otherwise."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, AddressScopedRateThrottle, ForgotEmailRateThrottle]
    throttle_scope = "password_forgot"

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PasswordForgot"

        email = serializers.EmailField(max_length=254)

    @extend_schema(operation_id="auth_password_forgot", request=InputSerializer,
                   responses={202: ForgotSerializer, **error_responses(400)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        recovery.password_forgot(email=data.validated_data["email"],
                                 language=translation.get_language() or "")
        return Response({"message": _("If an account has this address, a mail with a link to "
                                      "choose a new password is on its way.")},
                        status=status.HTTP_202_ACCEPTED)


class PasswordResetApi(APIView):
    """Choose a new password with the link of a reset mail (its ``uid`` and ``token``). Every
    token and session of the account ends; sign in with the new password (which opens a
    disabled account again)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, AddressScopedRateThrottle]
    throttle_scope = "password_reset"

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PasswordReset"

        uid = serializers.CharField(max_length=64)
        token = serializers.CharField(max_length=128)
        password = password_field()

    @extend_schema(operation_id="auth_password_reset", request=InputSerializer,
                   responses={204: None, **error_responses(400)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        recovery.password_reset(**data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


AccountSerializer = schema_serializer("Account", {
    "deletion_grace_days": serializers.IntegerField(help_text=(
        "Days between asking for the deletion and the deletion; signing in before cancels it.")),
    "export_keep_days": serializers.IntegerField(help_text=(
        "Days an export's archive can be downloaded once built.")),
    "can_close": serializers.BooleanField(help_text=(
        "Whether this account can be closed here (a guest's is deleted when idle).")),
})

ClosedSerializer = schema_serializer("AccountClosed", {
    "closure": serializers.ChoiceField(choices=["disabled", "deleting"]),
    "deletion_due_at": serializers.DateTimeField(allow_null=True, help_text=(
        "When the account is deleted, unless you sign in before; null when disabled.")),
    "matches": serializers.DictField(child=serializers.ChoiceField(
        choices=["forfeited", "aborted", "seat_reopened"]), help_text=(
        "The running matches left, by id: resigned, called off or invitation withdrawn.")),
})


class AccountApi(APIView):
    """What closing the account and exporting its data involve on this server."""

    @extend_schema(operation_id="me_account", responses={200: AccountSerializer,
                                                         **error_responses()})
    def get(self, request):
        return Response({"deletion_grace_days": settings.ACCOUNT_DELETION_GRACE_DAYS,
                         "export_keep_days": settings.EXPORT_KEEP_DAYS,
                         "can_close": not request.user.is_guest})


class AccountCloseApi(APIView):
    """Close the caller's account, the password confirming it: ``disable`` (signing in again
    opens it) or ``delete`` (done after the grace period; signing in before cancels it). Either
    way every running match is left (resigned, or called off before anyone moved), every token
    and session ends, and the player leaves the leaderboards."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "AccountClose"

        kind = serializers.ChoiceField(choices=list(closing.KINDS))
        password = password_field()

    @extend_schema(operation_id="me_account_close", request=InputSerializer,
                   responses={200: ClosedSerializer, **error_responses(400, 403)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if request.user.is_guest:
            raise GuestNotAllowed()
        closed = closing.account_close(request=request._request, user=request.user,
                                       **data.validated_data)
        return Response({"closure": closed.user.closure,
                         "deletion_due_at": closed.user.deletion_due_at,
                         "matches": closed.matches})


ExportSerializer = schema_serializer("DataExport", {
    "id": serializers.UUIDField(),
    "status": serializers.ChoiceField(choices=DataExport.Status.values),
    "requested_at": serializers.DateTimeField(),
    "ready_at": serializers.DateTimeField(allow_null=True),
    "expires_at": serializers.DateTimeField(allow_null=True, help_text=(
        "After this the archive is deleted.")),
    "size": serializers.IntegerField(help_text="The archive's size in bytes, once ready."),
})


class ExportListApi(APIView):
    """The caller's data exports (GET), or ask for a new one (POST): a worker builds a JSON
    archive of everything the server holds about the caller, and a notification says when it
    can be downloaded."""

    throttle_scope = "export"

    def get_throttles(self):
        throttles = [PlayerRateThrottle()]
        if self.request.method == "POST":
            throttles.append(ScopedRateThrottle())
        return throttles

    @extend_schema(operation_id="me_exports", responses={200: ExportSerializer(many=True),
                                                         **error_responses()})
    def get(self, request):
        return Response(ExportSerializer(export.exports_of(user=request.user), many=True).data)

    @extend_schema(operation_id="me_export_request", request=None,
                   responses={202: ExportSerializer, **error_responses(409)})
    def post(self, request):
        made = export.export_request(user=request.user)
        return Response(ExportSerializer(made).data, status=status.HTTP_202_ACCEPTED)


class ExportDetailApi(APIView):
    @extend_schema(operation_id="me_export", responses={200: ExportSerializer,
                                                        **error_responses(404)})
    def get(self, request, export_id):
        return Response(ExportSerializer(export.export_get(user=request.user,
                                                           export_id=export_id)).data)


class ExportArchiveApi(APIView):
    """Download an export's archive (JSON), while it has not expired. Only its owner can."""

    @extend_schema(operation_id="me_export_archive",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description=(
                       "The archive: `format`, `created_at`, `username` and `sections` (profile, "
                       "notification_settings, tokens, push_subscriptions, vacation, matches, "
                       "ratings, notifications, follows, blocks, chat_lines, reports_filed, "
                       "tournaments).")),
                              **error_responses(404, 409, 410)})
    def get(self, request, export_id):
        document = export.export_document(user=request.user, export_id=export_id)
        response = HttpResponse(document, content_type="application/json")
        response["Content-Disposition"] = (
            f'attachment; filename="boardpost-{request.user.username}-{export_id}.json"')
        response["Cache-Control"] = "private, no-store"
        return response
