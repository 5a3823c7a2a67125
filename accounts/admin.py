from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import Rating, RatingChange, User


@admin.register(User)
class BoardpostUserAdmin(UserAdmin):
    list_display = ["username", "is_bot", "bot_game", "bot_level", "is_staff", "date_joined"]
    list_filter = ["is_bot", "bot_game", "is_staff"]
    fieldsets = (*UserAdmin.fieldsets, ("Bot", {"fields": ("is_bot", "bot_game", "bot_level",
                                                            "bot_description")}))


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "display", "mu", "sigma", "games_played"]
    list_filter = ["game"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "match", "display_before", "display_after", "at"]
    list_filter = ["game"]
