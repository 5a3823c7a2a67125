from django.contrib import admin

from games.models import Match, Move, Rating, RatingChange, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "num_players", "version", "rated", "created_at"]
    list_filter = ["game", "status", "rated"]
    inlines = [SeatInline]
    readonly_fields = ["seed", "state", "version", "actors", "outcome"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["match", "seq", "kind", "seat", "created_at"]
    list_filter = ["kind"]
    raw_id_fields = ["match", "user"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "display", "mu", "sigma", "games_played"]
    list_filter = ["game"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "match", "display_before", "display_after", "at"]
    list_filter = ["game"]
