"""The admin shows matches, seats, moves and ratings read-only: every change to a match goes
through games.services, under the match row lock, as a recorded move."""

from django.contrib import admin

from games.models import Match, Move, Rating, RatingChange, Seat


class ReadOnly:
    """Viewing only: no adding, changing or deleting through the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["id", "game", "status", "num_players", "version", "rated", "created_at"]
    list_filter = ["game", "status", "rated"]
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["match", "seq", "kind", "seat", "created_at"]
    list_filter = ["kind"]
    raw_id_fields = ["match", "user"]


@admin.register(Rating)
class RatingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["user", "game", "display", "mu", "sigma", "games_played"]
    list_filter = ["game"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["user", "game", "match", "display_before", "display_after", "at"]
    list_filter = ["game"]
