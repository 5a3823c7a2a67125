"""Notification endpoints: devices (Web Push subscriptions), preferences, the email address
and its verification, and the signed links that work without signing in."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.utils.html import escape
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.settings import APISettings
from rest_framework.views import APIView

from config.api import (
    BoundedJSONParser,
    ORJSONRenderer,
    QuerySerializer,
    StrictSerializer,
    error_responses,
)
from config.exceptions import NotFound
from config.throttling import AnonRateThrottle
from games.notify import kinds, push
from games.notify.devices import (
    push_subscription_delete,
    push_subscription_register,
    push_subscription_renew,
)
from games.notify.exceptions import NoEmailAddress, PushNotConfigured
from games.notify.models import (
    REMINDER_OFFSET_MAX,
    REMINDER_OFFSET_MIN,
    REMINDER_OFFSETS_MAX,
    Channel,
    Kind,
    NotificationSettings,
    PushSubscription,
)
from games.notify.preferences import (
    email_address,
    email_set,
    email_verification_send,
    email_verify,
    preferences_update,
    settings_for,
    time_zone_valid,
    unsubscribe,
    unsubscribe_preview,
)

# --------------------------------------------------------------------------- shapes


class PushKeysSerializer(StrictSerializer):
    p256dh = serializers.CharField(max_length=100, help_text=(
        "The device's P-256 public key, uncompressed, base64url (PushSubscription.getKey)."))
    auth = serializers.CharField(max_length=50, help_text="The 16-byte auth secret, base64url.")


class PushSubscriptionInputSerializer(StrictSerializer):
    """A browser's ``PushSubscription.toJSON()``, with an optional name for the device."""

    endpoint = serializers.URLField(max_length=1000)
    expirationTime = serializers.IntegerField(  # noqa: N815 - the browser's own name
        required=False, allow_null=True, help_text="As the browser gives it; not used.")
    keys = PushKeysSerializer()
    name = serializers.CharField(required=False, allow_blank=True, max_length=100, default="",
                                 help_text="A name to tell the device by, e.g. \"phone\".")


class PushSubscriptionSerializer(serializers.Serializer):
    class Meta:
        ref_name = "PushSubscription"

    id = serializers.IntegerField()
    name = serializers.CharField()
    user_agent = serializers.CharField()
    endpoint_host = serializers.CharField(help_text="The push service's host.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


def _channels_serializer(kind: str) -> type[StrictSerializer]:
    fields: dict[str, Any] = {
        channel: serializers.BooleanField(required=False) for channel in Channel.values}
    return type(f"{kind.title().replace('_', '')}ChannelsSerializer", (StrictSerializer,),
                {**fields, "__doc__": f"The channels for {kinds.LABELS[kind]}."})


PreferencesSerializer = type("NotificationPreferencesSerializer", (StrictSerializer,), {
    **{kind: _channels_serializer(kind)(required=False) for kind in Kind.values},
    "__doc__": "Per kind of notification, per channel: on (true) or off (false)."})


class ReminderOffsetsField(serializers.ListField):
    """The reminder offsets as sent: a JSON array of integers (each type-checked here); their
    number, bounds and distinctness are the service's to check
    (``games.notify.preferences.reminder_offsets_checked``), with a coded error."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.IntegerField(
            min_value=REMINDER_OFFSET_MIN, max_value=REMINDER_OFFSET_MAX), **kwargs)

    def to_internal_value(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            raise serializers.ValidationError(gettext("Must be a list of integers."))
        if any(isinstance(v, bool) or not isinstance(v, int) for v in data):
            raise serializers.ValidationError(gettext("Must be a list of integers."))
        return list(data)


REMINDER_OFFSETS_HELP = (
    "Seconds before each deadline at which to be reminded (default 86400, 14400, 3600): at "
    f"most {REMINDER_OFFSETS_MAX} distinct offsets, each from {REMINDER_OFFSET_MIN} (15 "
    f"minutes) to {REMINDER_OFFSET_MAX} (7 days); [] for none. Anything else is "
    "invalid_reminder_offsets. A deadline_soon entry goes out at each, once per deadline of "
    "your own seat's clock, except where the turn began with no more time than the offset; "
    "new offsets count at once in running matches.")


class SettingsInputSerializer(StrictSerializer):
    preferences = PreferencesSerializer(required=False)
    reminder_offsets = ReminderOffsetsField(required=False, help_text=REMINDER_OFFSETS_HELP)
    email_digest = serializers.BooleanField(required=False, help_text=(
        "Mails come as one daily digest instead of one mail each; the digest also lists the "
        "matches where it is your turn with less than a day left (while deadline_soon mails "
        "are on), and goes out for that list alone."))
    digest_hour = serializers.IntegerField(required=False, min_value=0, max_value=23, help_text=(
        "The hour of the day (0-23, in time_zone) the digest goes out."))
    time_zone = serializers.CharField(required=False, max_length=64, help_text=(
        "The person's time zone, an IANA name such as Europe/Paris (default UTC)."))

    def validate_time_zone(self, value: str) -> str:
        if not time_zone_valid(value):
            raise serializers.ValidationError(gettext("Not a known time zone (an IANA name)."))
        return value


class SettingsSerializer(serializers.Serializer):
    class Meta:
        ref_name = "NotificationSettings"

    preferences = serializers.DictField(child=serializers.DictField(
        child=serializers.BooleanField()), help_text=(
        "Every kind (your_turn, deadline_soon, invited, match_finished, vacation_ending, "
        "vacation_ended, auto_vacation_started, plan_not_covered, plan_dropped, chat, "
        "tournament, export_ready) with its channels (push, email): on or off."))
    reminder_offsets = serializers.ListField(child=serializers.IntegerField(), help_text=(
        "Seconds before each deadline at which you are reminded, longest first."))
    email_digest = serializers.BooleanField()
    digest_hour = serializers.IntegerField(help_text=(
        "The digest goes out once a day at this hour (0-23) in time_zone."))
    time_zone = serializers.CharField(help_text="An IANA time zone name.")
    email = serializers.CharField(help_text="The account's address; empty when none.")
    email_verified = serializers.BooleanField(help_text="Mail goes only to a verified address.")
    push_available = serializers.BooleanField(help_text="This server sends Web Push.")
    vapid_public_key = serializers.CharField(help_text=(
        "The applicationServerKey for pushManager.subscribe (base64url); empty without push."))
    devices = serializers.IntegerField(help_text="Registered push subscriptions.")


class EmailInputSerializer(StrictSerializer):
    email = serializers.EmailField(allow_blank=True, max_length=254, help_text=(
        "The address to notify; a verification link is mailed to it. Empty removes it."))


class TokenQuerySerializer(QuerySerializer):
    token = serializers.CharField(max_length=1000)


class TokenBodySerializer(serializers.Serializer):
    # Mail programs send the one-click POST as a form ("List-Unsubscribe=One-Click").
    token = serializers.CharField(required=False, max_length=1000)


class UnsubscribeConfirmSerializer(serializers.Serializer):
    class Meta:
        ref_name = "UnsubscribeConfirmation"

    message = serializers.CharField()
    kinds = serializers.ListField(child=serializers.CharField(), help_text=(
        "The kinds of mail a POST to confirm_url stops."))
    confirm_url = serializers.CharField(help_text="POST here (no body needed) to unsubscribe.")


class PushSubscriptionRenewSerializer(StrictSerializer):
    """What a service worker sends when the push service replaced its subscription."""

    old_endpoint = serializers.URLField(max_length=1000, help_text=(
        "The endpoint of the subscription that was replaced."))
    old_auth = serializers.CharField(max_length=50, help_text=(
        "Its auth secret (base64url), as registered: the proof that this is that device."))
    subscription = PushSubscriptionInputSerializer(help_text=(
        "The new subscription's PushSubscription.toJSON() (its name is kept)."))


class DoneSerializer(serializers.Serializer):
    class Meta:
        ref_name = "NotificationLinkResult"

    message = serializers.CharField()
    turned_off = serializers.ListField(child=serializers.CharField(), required=False)


def _subscription(sub: PushSubscription) -> dict[str, Any]:
    host = sub.endpoint.split("://", 1)[-1].split("/", 1)[0]
    return {"id": sub.id, "name": sub.name, "user_agent": sub.user_agent,
            "endpoint_host": host, "created_at": sub.created_at,
            "last_used_at": sub.last_used_at}


def _settings(user: Any) -> dict[str, Any]:
    prefs: NotificationSettings = settings_for(user)
    return {
        "preferences": kinds.preferences_with_defaults(prefs.preferences),
        "email_digest": prefs.email_digest,
        "digest_hour": prefs.digest_hour,
        "time_zone": prefs.time_zone,
        "reminder_offsets": sorted(prefs.reminder_offsets, reverse=True),
        "email": user.email or "",
        "email_verified": email_address(user, prefs) is not None,
        "push_available": push.configured(),
        "vapid_public_key": push.public_key(),
        "devices": PushSubscription.objects.filter(user=user).count(),
    }


# --------------------------------------------------------------------------- signed-in


class PushSubscriptionListApi(APIView):
    @extend_schema(operation_id="push_subscriptions_list",
                   responses={200: PushSubscriptionSerializer(many=True), **error_responses()})
    def get(self, request):
        subs = PushSubscription.objects.filter(user=request.user).order_by("id")
        return Response([_subscription(sub) for sub in subs])

    @extend_schema(operation_id="push_subscriptions_create",
                   request=PushSubscriptionInputSerializer,
                   responses={201: PushSubscriptionSerializer,
                              **error_responses(400, 409)})
    def post(self, request):
        data = PushSubscriptionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        sub = push_subscription_register(
            user=request.user, endpoint=values["endpoint"], p256dh=values["keys"]["p256dh"],
            auth=values["keys"]["auth"], name=values.get("name", ""),
            user_agent=request.headers.get("User-Agent", "")[:300])
        return Response(_subscription(sub), status=status.HTTP_201_CREATED)


class PushSubscriptionDetailApi(APIView):
    @extend_schema(operation_id="push_subscriptions_delete", responses={
        204: None, **error_responses(404)})
    def delete(self, request, subscription_id: int):
        if not push_subscription_delete(user=request.user, subscription_id=subscription_id):
            raise NotFound(gettext("No such push subscription."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class NotificationSettingsApi(APIView):
    @extend_schema(operation_id="notification_settings",
                   responses={200: SettingsSerializer, **error_responses()})
    def get(self, request):
        return Response(_settings(request.user))

    @extend_schema(operation_id="notification_settings_update", request=SettingsInputSerializer,
                   responses={200: SettingsSerializer, **error_responses(400)})
    def patch(self, request):
        data = SettingsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        preferences_update(user=request.user, preferences=values.get("preferences"),
                           email_digest=values.get("email_digest"),
                           digest_hour=values.get("digest_hour"),
                           time_zone=values.get("time_zone"),
                           reminder_offsets=values.get("reminder_offsets"))
        return Response(_settings(request.user))


class EmailApi(APIView):
    @extend_schema(operation_id="email_set", request=EmailInputSerializer,
                   responses={200: SettingsSerializer, **error_responses(400)})
    def put(self, request):
        data = EmailInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        email_set(user=request.user, email=data.validated_data["email"].strip())
        return Response(_settings(request.user))


class EmailVerificationApi(APIView):
    @extend_schema(operation_id="email_verification_send", request=None, responses={
        202: OpenApiResponse(description="A verification link was mailed."),
        **error_responses(409)})
    def post(self, request):
        if not request.user.email:
            raise NoEmailAddress()
        email_verification_send(user=request.user)
        return Response(status=status.HTTP_202_ACCEPTED)


# --------------------------------------------------------------------------- links in mails


class LinkPageRenderer(BaseRenderer):
    """A small HTML page for a person who opened a link from a mail in a browser."""

    media_type = "text/html"
    format = "html"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None,
               renderer_context: Any = None) -> bytes:
        found = data if isinstance(data, dict) else {}
        text = found.get("message", "")
        # A confirmation: a button that POSTs (a GET of a mailed link changes nothing, so a
        # mail scanner that follows every link stops no mail).
        confirm = found.get("confirm_url")
        form = ("<form method=\"post\" action=\"" + escape(confirm) + "\">"
                "<input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">"
                "<button type=\"submit\">" + escape(gettext("Unsubscribe")) + "</button></form>"
                if isinstance(confirm, str) else "")
        return (
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width\"><title>Boardpost</title>"
            "</head><body><main><h1>Boardpost</h1><p>" + escape(text) + "</p>" + form +
            "<p><a href=\"/\">Open Boardpost</a></p></main></body></html>").encode("utf-8")


class AcceptHeaderNegotiation(DefaultContentNegotiation):
    """The Accept header alone chooses between JSON and the page: ``?format=`` is no override
    here, only one more parameter these views do not take (never a 404)."""

    settings = APISettings({"URL_FORMAT_OVERRIDE": None})  # type: ignore[assignment,arg-type]


class _LinkApi(APIView):
    """Reached from a mail: no sign-in (the signed token says who), JSON or a page."""

    content_negotiation_class = AcceptHeaderNegotiation
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle]
    renderer_classes = [ORJSONRenderer, LinkPageRenderer]

    def _token(self, request) -> str:
        if request.method == "POST" and request.data.get("token"):
            body = TokenBodySerializer(data={"token": request.data.get("token")})
            body.is_valid(raise_exception=True)
            return str(body.validated_data["token"])
        query = TokenQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        return str(query.validated_data["token"])


TOKEN_PARAMETER = OpenApiParameter("token", str, required=True,
                                   description="The signed token of the mailed link.")
LINK_RESPONSES = {200: DoneSerializer, **error_responses(400)}


class UnsubscribeApi(_LinkApi):
    """The link in every mail. A GET (a person opening it, or a mail scanner following it)
    changes nothing: it shows what would stop and a button that POSTs. A POST stops those mails
    at once: the button, and RFC 8058's one-click POST that mail programs send for the
    ``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` header (a form body, the token in the
    URL)."""

    parser_classes = [BoundedJSONParser, FormParser, MultiPartParser]

    @extend_schema(operation_id="notifications_unsubscribe", parameters=[TOKEN_PARAMETER],
                   responses={200: UnsubscribeConfirmSerializer, **error_responses(400)},
                   auth=[])
    def get(self, request):
        token = self._token(request)
        _, would = unsubscribe_preview(token=token)
        names = ", ".join(str(kinds.LABELS[k]) for k in would)
        return Response({
            "message": gettext("Stop mails about %(kinds)s? Press the button to confirm.")
            % {"kinds": names},
            "kinds": would,
            "confirm_url": f"{request.path}?{urlencode({'token': token})}"})

    @extend_schema(operation_id="notifications_unsubscribe_one_click",
                   parameters=[TOKEN_PARAMETER], request=None, responses=LINK_RESPONSES, auth=[])
    def post(self, request):
        _, turned_off = unsubscribe(token=self._token(request))
        names = ", ".join(str(kinds.LABELS[k]) for k in turned_off)
        return Response({"message": gettext("No more mails about %(kinds)s. Turn them back on "
                                            "in your notification settings.") % {"kinds": names},
                         "turned_off": turned_off})


class EmailVerifyApi(_LinkApi):
    @extend_schema(operation_id="email_verify", parameters=[TOKEN_PARAMETER],
                   responses=LINK_RESPONSES, auth=[])
    def get(self, request):
        user = email_verify(token=self._token(request))
        return Response({"message": f"Thank you: {user.email} is verified. Notifications "
                                    f"you chose will be mailed there."})


class PushSubscriptionRenewApi(APIView):
    """Called by the web client's service worker on ``pushsubscriptionchange``: it has no API
    token, so the old subscription's endpoint and auth secret say whose device it is."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle]

    @extend_schema(operation_id="push_subscriptions_renew", request=PushSubscriptionRenewSerializer,
                   responses={204: None, **error_responses(400, 404, 409)}, auth=[])
    def post(self, request):
        data = PushSubscriptionRenewSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        new = values["subscription"]
        push_subscription_renew(
            old_endpoint=values["old_endpoint"], old_auth=values["old_auth"],
            endpoint=new["endpoint"], p256dh=new["keys"]["p256dh"], auth=new["keys"]["auth"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class PushPublicKeyApi(APIView):
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "PushPublicKey"

        public_key = serializers.CharField(help_text=(
            "The VAPID public key: pushManager.subscribe's applicationServerKey (base64url)."))

    @extend_schema(operation_id="push_public_key", responses={
        200: OutputSerializer, **error_responses()}, auth=[])
    def get(self, request):
        if not push.configured():
            raise PushNotConfigured()
        return Response({"public_key": push.public_key()})
