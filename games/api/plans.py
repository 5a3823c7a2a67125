"""The caller's plan for a match (conditional moves): read, saved, deleted by its owner."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import StrictSerializer, error_responses
from games import services
from games.api import schemas
from games.selectors import shapes

PLAN_TEXT = (
    "The caller's plan for the match: replies decided ahead to the other seat's moves, played "
    "for them as soon as the other seat makes a move a branch covers (docs/plans.md). Shown to "
    "its owner alone; nobody else can tell whether one exists. 404 for anyone who holds no "
    "seat of the match (or cannot see it).")


class PlanInputSerializer(StrictSerializer):
    plan = serializers.JSONField(help_text=(
        "The plan's branches, or during the caller's own turn its openings; an empty list "
        "deletes the plan."))
    expected_version = serializers.IntegerField(min_value=0, help_text=(
        "The match's version the plan was made for; another answers 409 plan_stale."))


def _answer(view: services.PlanView) -> shapes.PlanAnswer:
    return {"plan": view.tree, "plan_version": view.plan_version, "version": view.version}


class MatchPlanApi(APIView):
    @extend_schema(operation_id="matches_plan_get", description=PLAN_TEXT,
                   responses={200: schemas.PlanAnswerSerializer, **error_responses(404)})
    def get(self, request, match_id):
        return Response(_answer(services.plan_get(user=request.user, match_id=match_id)))

    @extend_schema(
        operation_id="matches_plan_save", request=PlanInputSerializer,
        description=(
            "Save the caller's plan in place of any they held, checked in the match's current "
            "position, from the current version (409 plan_stale), in a match that allows "
            "plans (409 plans_unavailable). While the caller waits for the other seat's move "
            "the plan is branches (`on`); during their own turn it is openings (`mine`: their "
            "own next moves, then the branches), which their move by hand prunes to the "
            "lines that start with it (409 plan_not_waiting for branches during their turn, "
            "plan_not_your_turn for openings while they wait). Every key must be a move the "
            "other seat could make and every move of the caller legal where it would be "
            "played (422 plan_illegal_key, plan_illegal_reply, plan_unreachable, with "
            "`extra.path`; an opening takes no move that turns up something hidden); limits "
            "answer 400 plan_too_large, a wrong shape 400 plan_malformed. An empty plan "
            "deletes it."),
        responses={200: schemas.PlanAnswerSerializer, **error_responses(400, 404, 409, 422)})
    def put(self, request, match_id):
        data = PlanInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        return Response(_answer(services.plan_save(
            user=request.user, match_id=match_id, tree=values["plan"],
            expected_version=values["expected_version"])))

    @extend_schema(operation_id="matches_plan_delete", request=None,
                   description="Delete the caller's plan for the match, if they hold one.",
                   responses={204: None, **error_responses(404)})
    def delete(self, request, match_id):
        services.plan_delete(user=request.user, match_id=match_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
