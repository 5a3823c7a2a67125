"""The caller's vacation: read it, start it (PUT), end it (DELETE), turn auto-vacation on or
off (PATCH)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import StrictSerializer, error_responses
from games.api.schemas import serializer_for
from games.selectors import shapes
from games.selectors.vacations import vacation_status
from games.services.vacations import auto_vacation_set, vacation_end, vacation_start

VacationSerializer = serializer_for(shapes.Vacation)


class NoBodySerializer(StrictSerializer):
    """PUT and DELETE take no body (an empty object is the same as none)."""


def _no_body(request) -> None:
    data = request.data
    if isinstance(data, dict) and not data:
        return
    NoBodySerializer(data=data).is_valid(raise_exception=True)


class VacationApi(APIView):
    """While you are on vacation your clocks stop in every match that allows it (not against
    bots only) and the time comes off your vacation bank; when it ends they run again, a seat
    on turn with at least a day, or its whole turn if that is shorter (docs/correspondence.md).
    Nobody else sees your bank."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "VacationUpdate"

        auto_vacation = serializers.BooleanField(help_text=(
            "On: when a seat's time runs out in a match that stops for vacations and the bank "
            "holds at least what a return gives back (a day, or the match's turn if shorter), "
            "a vacation starts at that instant instead of the timeout, and you are told "
            "(auto_vacation_started). On by default."))

    @extend_schema(operation_id="vacation",
                   responses={200: VacationSerializer, **error_responses()})
    def get(self, request):
        return Response(vacation_status(user=request.user, now=timezone.now()))

    @extend_schema(operation_id="vacation_start", request=None,
                   responses={200: VacationSerializer, **error_responses(400, 409)})
    def put(self, request):
        _no_body(request)
        now = timezone.now()
        vacation_start(user=request.user, now=now)
        return Response(vacation_status(user=request.user, now=now))

    @extend_schema(operation_id="vacation_end", request=None,
                   responses={200: VacationSerializer, **error_responses(400, 409)})
    def delete(self, request):
        _no_body(request)
        now = timezone.now()
        vacation_end(user=request.user, now=now)
        return Response(vacation_status(user=request.user, now=now))

    @extend_schema(operation_id="vacation_update", request=InputSerializer,
                   responses={200: VacationSerializer, **error_responses(400)})
    def patch(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        now = timezone.now()
        auto_vacation_set(user=request.user, enabled=data.validated_data["auto_vacation"],
                          now=now)
        return Response(vacation_status(user=request.user, now=now))
