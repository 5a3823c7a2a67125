"""People API: follow players (friends are mutual follows) and block them.

    GET    /api/me/following               the players I follow
    PUT    /api/me/following/{username}    follow a player          DELETE: unfollow
    GET    /api/me/followers               the players who follow me
    GET    /api/me/friends                 the players I follow who follow me back
    GET    /api/me/blocks                  the players I blocked, with the switches
    PUT    /api/me/blocks/{username}       block (or change the switches)   DELETE: unblock
"""

from __future__ import annotations

from collections.abc import Iterable

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import blocks, follows
from accounts.exceptions import PlayerNotFound
from accounts.models import Block, User
from config.api import StrictSerializer, error_responses, schema_serializer

PersonSerializer = schema_serializer("Person", {
    "username": serializers.CharField(),
    "friend": serializers.BooleanField(help_text="You follow each other."),
})
PeopleSerializer = schema_serializer("PersonList", {
    "people": PersonSerializer(many=True),
})
BlockSerializer = schema_serializer("Block", {
    "username": serializers.CharField(),
    "games": serializers.BooleanField(help_text=(
        "No invitation or rematch offer from them, never seated together through an open seat, "
        "and a tournament pairing avoided where the format allows.")),
    "chat": serializers.BooleanField(help_text="Their chat lines are hidden from you."),
    "created": serializers.DateTimeField(),
})
BlocksSerializer = schema_serializer("BlockList", {"blocks": BlockSerializer(many=True)})


def _person(username: str) -> User:
    """The active person called ``username`` (not a bot, nor a guest), else 404."""
    user = (User.objects.filter(username__iexact=username, is_active=True, is_bot=False,
                                is_guest=False).first() if "\x00" not in username else None)
    if user is None:
        raise PlayerNotFound()
    return user


def _people(users: Iterable[User], friend_ids: set[int]) -> dict:
    return {"people": [{"username": u.username, "friend": u.pk in friend_ids} for u in users]}


def _friend_ids(user: User) -> set[int]:
    return set(follows.friends(user).values_list("pk", flat=True))


def _block(block: Block) -> dict:
    return {"username": block.blocked.username, "games": block.games, "chat": block.chat,
            "created": block.created}


class FollowingApi(APIView):
    @extend_schema(operation_id="me_following", responses={200: PeopleSerializer,
                                                          **error_responses()})
    def get(self, request):
        return Response(_people(follows.following(request.user), _friend_ids(request.user)))


class FollowersApi(APIView):
    @extend_schema(operation_id="me_followers", responses={200: PeopleSerializer,
                                                          **error_responses()})
    def get(self, request):
        return Response(_people(follows.followers(request.user), _friend_ids(request.user)))


class FriendsApi(APIView):
    @extend_schema(operation_id="me_friends", responses={200: PeopleSerializer,
                                                        **error_responses()})
    def get(self, request):
        friends = list(follows.friends(request.user))
        return Response(_people(friends, {u.pk for u in friends}))


class FollowApi(APIView):
    """Follow a player (one way: they are not told more than that they have a follower, in
    their own list of followers). Following again changes nothing."""

    @extend_schema(operation_id="me_follow", request=None,
                   responses={204: None, **error_responses(400, 404)})
    def put(self, request, username: str):
        follows.follow(user=request.user, other=_person(username))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(operation_id="me_unfollow",
                   responses={204: None, **error_responses(404)})
    def delete(self, request, username: str):
        follows.unfollow(user=request.user, other=_person(username))
        return Response(status=status.HTTP_204_NO_CONTENT)


class BlockListApi(APIView):
    @extend_schema(operation_id="me_blocks", responses={200: BlocksSerializer,
                                                       **error_responses()})
    def get(self, request):
        return Response({"blocks": [_block(b) for b in blocks.blocks_of(request.user)]})


class BlockApi(APIView):
    """Block a player, or change what the block covers. The blocked player is never told."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "BlockUpdate"

        games = serializers.BooleanField(required=False, default=True, help_text=(
            "No invitations or rematch offers from them, never seated together through an "
            "open seat, and a tournament pairing avoided where the format allows. Default on."))
        chat = serializers.BooleanField(required=False, default=True, help_text=(
            "Their chat lines are hidden from you. Default on."))

    @extend_schema(operation_id="me_block", request=InputSerializer,
                   responses={200: BlockSerializer, **error_responses(400, 404)})
    def put(self, request, username: str):
        data = self.InputSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        block = blocks.block_set(user=request.user, other=_person(username),
                                 **data.validated_data)
        return Response(_block(block))

    @extend_schema(operation_id="me_unblock",
                   responses={204: None, **error_responses(404)})
    def delete(self, request, username: str):
        blocks.block_remove(user=request.user, other=_person(username))
        return Response(status=status.HTTP_204_NO_CONTENT)
