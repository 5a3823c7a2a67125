from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.authentication import CachedTokenAuthentication
from accounts.models import ApiToken, User


@admin.register(User)
class BoardpostUserAdmin(UserAdmin):
    list_display = ["username", "is_bot", "bot_game", "bot_level", "is_staff", "is_active",
                    "closure", "date_joined"]
    list_filter = ["is_bot", "bot_game", "is_staff", "is_active", "closure"]
    fieldsets = (*UserAdmin.fieldsets, ("Bot", {"fields": ("is_bot", "bot_game", "bot_level",
                                                            "bot_description")}),
                 ("Closed", {"fields": ("closure", "closed_at", "deletion_due_at")}))
    readonly_fields = ["closure", "closed_at", "deletion_due_at"]



@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens can be seen and revoked (deleted) here; keys are never stored, so never shown."""

    list_display = ["user", "name", "prefix", "created", "expires"]
    search_fields = ["user__username", "name", "prefix"]
    readonly_fields = ["user", "name", "prefix", "digest", "created", "expires"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def delete_model(self, request, obj):
        CachedTokenAuthentication.forget_tokens([obj])
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        CachedTokenAuthentication.forget_tokens(list(queryset))
        super().delete_queryset(request, queryset)
