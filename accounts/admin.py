from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class BoardpostUserAdmin(UserAdmin):
    list_display = ["username", "is_bot", "bot_game", "bot_level", "is_staff", "date_joined"]
    list_filter = ["is_bot", "bot_game", "is_staff"]
    fieldsets = (*UserAdmin.fieldsets, ("Bot", {"fields": ("is_bot", "bot_game", "bot_level",
                                                            "bot_description")}))

