"""Response shapes of the games API, for the OpenAPI schema and its contract test."""

from rest_framework import serializers

from config.api import schema_serializer

PlayerRefSerializer = schema_serializer("PlayerRef", {
    "username": serializers.CharField(),
    "is_bot": serializers.BooleanField(),
})

SeatSerializer = schema_serializer("Seat", {
    "index": serializers.IntegerField(),
    "player": PlayerRefSerializer(allow_null=True),
    "joined": serializers.BooleanField(help_text="False for an invitation not yet accepted."),
    "to_act": serializers.BooleanField(),
    "forfeited": serializers.BooleanField(),
    "rank": serializers.IntegerField(allow_null=True),
    "score": serializers.FloatField(allow_null=True),
})

_summary_fields = {
    "id": serializers.UUIDField(),
    "game": serializers.CharField(),
    "status": serializers.ChoiceField(choices=["open", "active", "finished", "aborted"]),
    "players": serializers.IntegerField(),
    "rated": serializers.BooleanField(),
    "version": serializers.IntegerField(help_text="+1 per recorded transition."),
    "turn_seconds": serializers.IntegerField(allow_null=True),
    "deadline": serializers.DateTimeField(allow_null=True),
    "created_at": serializers.DateTimeField(),
    "updated_at": serializers.DateTimeField(),
    "seats": SeatSerializer(many=True),
    "to_act": serializers.ListField(child=serializers.IntegerField()),
    "your_seat": serializers.IntegerField(allow_null=True),
    "is_your_turn": serializers.BooleanField(),
    "invitation_pending": serializers.BooleanField(
        help_text="A seat is reserved for you: join to accept, or decline."),
    "outcome": serializers.JSONField(allow_null=True),
}

MatchSummarySerializer = schema_serializer("MatchSummary", _summary_fields)

MatchDetailSerializer = schema_serializer("MatchDetail", {
    **_summary_fields,
    "config": serializers.JSONField(),
    "started_at": serializers.DateTimeField(allow_null=True),
    "finished_at": serializers.DateTimeField(allow_null=True),
    "view": serializers.JSONField(allow_null=True,
                                  help_text="The game as the caller's seat sees it."),
    "legal_moves": serializers.JSONField(allow_null=True,
                                         help_text="The caller's legal moves, compact form."),
    "seed": serializers.CharField(allow_null=True, help_text="Revealed once the match is over."),
})

MoveResultSerializer = schema_serializer("MoveResult", {
    "seq": serializers.IntegerField(),
    "events": serializers.ListField(child=serializers.DictField()),
    "match": MatchDetailSerializer(),
})

PreviewSerializer = schema_serializer("MovePreview", {
    "legal": serializers.BooleanField(),
    "events": serializers.ListField(child=serializers.DictField()),
    "view": serializers.JSONField(allow_null=True, help_text=(
        "The caller's view after the move; null when the move would end the match (the "
        "events then carry the result).")),
})

MoveLogEntrySerializer = schema_serializer("MoveLogEntry", {
    "seq": serializers.IntegerField(),
    "kind": serializers.ChoiceField(choices=["move", "system", "forfeit"]),
    "seat": serializers.IntegerField(allow_null=True),
    "player": PlayerRefSerializer(allow_null=True),
    "payload": serializers.JSONField(allow_null=True,
                                     help_text="Null when hidden from the caller."),
    "events": serializers.ListField(child=serializers.DictField()),
    "created_at": serializers.DateTimeField(),
})

MoveLogSerializer = schema_serializer("MoveLog", {
    "moves": MoveLogEntrySerializer(many=True),
    "next_after": serializers.IntegerField(help_text="Pass as `after` for the next page."),
    "version": serializers.IntegerField(),
})

GameSerializer = schema_serializer("Game", {
    "slug": serializers.CharField(),
    "name": serializers.CharField(),
    "min_players": serializers.IntegerField(),
    "max_players": serializers.IntegerField(),
    "options": serializers.ListField(child=serializers.DictField()),
})
