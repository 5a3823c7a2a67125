"""The admin: matches, seats, moves, ratings and the audit log are read-only here; every change
to a match goes through games.services, under the match row lock, as a recorded move.

Moderation (staff with the ``games.moderate`` permission) goes through the same services
(``games.services.moderation``), each action behind a confirmation page that asks for a reason:
abort or adjudicate a match (from its page, or abort several from the list), ban or unban users
(from the user list). Every action leaves an audit entry."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import CharField, QuerySet
from django.db.models.functions import Cast
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from accounts.admin import BoardpostUserAdmin
from accounts.models import User
from config.exceptions import ApplicationError
from games.models import AuditEntry, Match, Move, Rating, RatingChange, Seat
from games.services import moderation

MODERATE = "games.moderate"


class ReadOnly:
    """Viewing only: no adding, changing or deleting through the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class Moderating:
    """The ``moderate`` permission that moderation actions and pages require."""

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff
                    and request.user.has_perm(MODERATE))


def actor_of(request: HttpRequest) -> User:
    """The signed-in staff member (the admin lets no one else this far)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
                             max_length=2000, strip=True,
                             help_text="Required; kept in the audit log (never shown to players).")


class MatchAbortForm(ReasonForm):
    expected_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)


class AdjudicateForm(ReasonForm):
    winners = forms.TypedMultipleChoiceField(coerce=int, required=False,
                                             widget=forms.CheckboxSelectMultiple,
                                             help_text="The seats that win (share first place).")
    draw = forms.BooleanField(required=False, help_text="A draw between every seat in play.")
    rated = forms.BooleanField(required=False, help_text=(
        "Count the result towards ratings (only for a rated match; unticked, the match "
        "becomes unrated)."))
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        winners = self.fields["winners"]
        assert isinstance(winners, forms.ChoiceField)
        winners.choices = [
            (seat.index, f"seat {seat.index}: {seat.user or 'open'}")
            for seat in match.seats.all() if seat.forfeited_at is None]
        if not match.rated:
            self.fields["rated"].disabled = True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("draw")) == bool(data.get("winners")):
            raise forms.ValidationError("Tick the winning seats, or declare a draw.")
        return data


def confirmation(request: HttpRequest, admin_obj: admin.ModelAdmin, *, title: str, form: Any,
                 objects: list[Any], action: str | None = None,
                 warning: str = "") -> TemplateResponse:
    """The confirmation page of a moderation action: what it applies to and its form."""
    context = {
        **admin_obj.admin_site.each_context(request),
        "title": title,
        "opts": admin_obj.model._meta,
        "form": form,
        "objects": objects,
        "action": action,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "warning": warning,
    }
    return TemplateResponse(request, "admin/games/moderation_confirm.html", context)


def reasoned_action(request: HttpRequest, admin_obj: admin.ModelAdmin, queryset: QuerySet[Any],
                    *, title: str, action: str, warning: str,
                    act: Callable[[Any, str], object], done: str,
                    label: Callable[[Any], str] = str) -> TemplateResponse | None:
    """A list action that asks for a reason on its confirmation page, then does ``act(row,
    reason)`` for each selected row: a coded refusal of one row is shown (named by ``label``)
    and the others go on; ``done`` is the closing message, with ``{count}`` rows done."""
    form = ReasonForm(request.POST if "confirm" in request.POST else None)
    if "confirm" in request.POST and form.is_valid():
        count = 0
        for row in queryset:
            try:
                act(row, form.cleaned_data["reason"])
                count += 1
            except ApplicationError as exc:
                admin_obj.message_user(request, f"{label(row)}: {exc.message}",
                                       messages.WARNING)
        admin_obj.message_user(request, done.format(count=count), messages.SUCCESS)
        return None
    return confirmation(request, admin_obj, title=title, form=form, objects=list(queryset),
                        action=action, warning=warning)


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["user"]


class MoveInline(ReadOnly, admin.TabularInline):
    """The match's log, in order; payloads in full (staff may see everything)."""

    model = Move
    extra = 0
    ordering = ["seq"]
    fields = readonly_fields = ("seq", "kind", "seat", "user", "payload", "events",
                                "created_at")
    can_delete = False
    show_change_link = False


class AuditInline(ReadOnly, admin.TabularInline):
    model = AuditEntry
    fk_name = "match"
    extra = 0
    fields = readonly_fields = ("at", "actor", "action", "reason", "data")
    verbose_name_plural = "moderation"


@admin.register(Match)
class MatchAdmin(Moderating, ReadOnly, admin.ModelAdmin):
    list_display = ["id", "game", "status", "num_players", "version", "rated", "players",
                    "created_at"]
    list_filter = ["game", "status", "rated"]
    # Free text finds players by username; an id (or its start), a game or a status exactly.
    search_fields = ["seats__user__username"]
    search_help_text = "A match id, a game, a status or a player's username."
    readonly_fields = ["id", "game", "config", "num_players", "status", "rated", "created_by",
                       "version", "actors", "outcome", "time_control", "clocks", "deadline",
                       "unrated_reason", "created_at", "started_at", "finished_at", "work_due_at",
                       "reminders_sent", "next_reminder_at", "state_json"]
    exclude = ["state", "seed"]
    inlines = [SeatInline, MoveInline, AuditInline]
    actions = ["abort_matches"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description="players")
    def players(self, match: Match) -> str:
        return ", ".join(str(seat.user) if seat.user else "open" for seat in match.seats.all())

    @admin.display(description="state (engine snapshot, read-only)")
    def state_json(self, match: Match) -> str:
        # Shown to staff only, escaped, and never written to any log.
        return format_html('<pre style="max-height:30em;overflow:auto">{}</pre>',
                           json.dumps(match.state, indent=1, sort_keys=True))

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Match],
                           search_term: str) -> tuple[QuerySet[Match], bool]:
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            return queryset.filter(id=uuid.UUID(term)), False
        except ValueError:
            pass
        lowered = term.lower()
        if lowered in Match.Status.values:
            return queryset.filter(status=lowered), False
        if lowered in dict(Match._meta.get_field("game").choices or []):
            return queryset.filter(game=lowered), False
        if len(term) >= 4 and all(c in "0123456789abcdef-" for c in lowered):
            prefix = queryset.annotate(id_text=Cast("id", output_field=CharField())).filter(
                id_text__startswith=lowered)
            if prefix.exists():
                return prefix, False
        return super().get_search_results(request, queryset, search_term)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<path:object_id>/abort/", self.admin_site.admin_view(self.abort_view),
                 name="games_match_abort"),
            path("<path:object_id>/adjudicate/",
                 self.admin_site.admin_view(self.adjudicate_view),
                 name="games_match_adjudicate"),
        ]
        return own + super().get_urls()

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        extra = {**(extra_context or {}), "can_moderate": self.has_moderate_permission(request)}
        return super().change_view(request, object_id, form_url, extra)

    def _moderated_match(self, request: HttpRequest, object_id: str) -> Match:
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        try:
            uuid.UUID(object_id)
        except ValueError:
            raise PermissionDenied from None
        return get_object_or_404(Match.objects.prefetch_related("seats__user"), pk=object_id)

    def _back(self, match: Match) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:games_match_change", args=[match.pk]))

    def abort_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = self._moderated_match(request, object_id)
        form = MatchAbortForm(request.POST or None,
                              initial={"expected_version": match.version})
        if request.method == "POST" and form.is_valid():
            try:
                moderation.match_abort_by_staff(
                    actor=actor_of(request), match_id=match.pk, reason=form.cleaned_data["reason"],
                    expected_version=form.cleaned_data["expected_version"])
            except ApplicationError as exc:
                self.message_user(request, f"Not aborted: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, "The match is aborted.", messages.SUCCESS)
            return self._back(match)
        return confirmation(request, self, title=f"Abort match {match.pk}", form=form,
                            objects=[match], warning=(
                                "The match ends as aborted, whatever has been played, and is "
                                "never rated."))

    def adjudicate_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = self._moderated_match(request, object_id)
        form = AdjudicateForm(request.POST or None, match=match,
                              initial={"expected_version": match.version, "rated": match.rated})
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                moderation.match_adjudicate(
                    actor=actor_of(request), match_id=match.pk, reason=data["reason"],
                    decision=moderation.Decision(winners=frozenset(data["winners"]),
                                                 draw=data["draw"]),
                    rated=bool(data["rated"]), expected_version=data["expected_version"])
            except ApplicationError as exc:
                self.message_user(request, f"Not adjudicated: {exc.message}", messages.ERROR)
            except ValueError as exc:
                self.message_user(request, f"Not adjudicated: {exc}", messages.ERROR)
            else:
                self.message_user(request, "The result is recorded.", messages.SUCCESS)
            return self._back(match)
        return confirmation(request, self, title=f"Adjudicate match {match.pk}", form=form,
                            objects=[match], warning=(
                                "The match ends with the declared result, recorded in its "
                                "log; seats that left rank below the rest."))

    @admin.action(description="Abort the selected matches", permissions=["moderate"])
    def abort_matches(self, request: HttpRequest,
                      queryset: QuerySet[Match]) -> TemplateResponse | None:
        return reasoned_action(
            request, self, queryset, title="Abort matches", action="abort_matches",
            warning=("Each running match ends as aborted and is never rated; finished ones "
                     "are left alone."),
            act=lambda match, reason: moderation.match_abort_by_staff(
                actor=actor_of(request), match_id=match.pk, reason=reason),
            done="{count} matches aborted.", label=lambda match: str(match.pk))


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


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["at", "actor", "action", "target", "reason"]
    list_filter = ["action"]
    search_fields = ["target", "actor__username", "target_user__username", "reason"]
    readonly_fields = ["at", "actor", "action", "match", "target_user", "target", "reason",
                       "data"]


# The user list gains the ban and unban actions. accounts imports nothing from games, so the
# accounts app's user admin is extended here rather than there.
admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(Moderating, BoardpostUserAdmin):
    list_display = ["username", "is_active", "is_bot", "bot_game", "bot_level", "is_staff",
                    "date_joined"]
    list_filter = ["is_active", "is_bot", "bot_game", "is_staff"]
    search_fields = ["username", "email"]
    actions = ["ban_users", "unban_users"]

    @admin.action(description="Ban the selected users (tokens, sessions, matches)",
                  permissions=["moderate"])
    def ban_users(self, request: HttpRequest, queryset: QuerySet[User]) -> TemplateResponse | None:
        form = ReasonForm(request.POST if "confirm" in request.POST else None)
        if "confirm" in request.POST and form.is_valid():
            for user in queryset:
                try:
                    result = moderation.user_ban(actor=actor_of(request), user_id=user.pk,
                                                 reason=form.cleaned_data["reason"])
                except ValueError as exc:
                    self.message_user(request, f"{user}: {exc}", messages.WARNING)
                    continue
                self.message_user(request, (
                    f"{user} banned: {result.tokens_revoked} tokens revoked, "
                    f"{result.sessions_ended} sessions ended, {len(result.matches)} matches "
                    f"left."), messages.SUCCESS)
            return None
        return confirmation(request, self, title="Ban users", form=form,
                            objects=list(queryset), action="ban_users", warning=(
                                "Each account is deactivated, its API tokens and sessions end, "
                                "and its running matches are left as the rules allow: "
                                "forfeited, or aborted before anyone moved."))

    @admin.action(description="Unban the selected users", permissions=["moderate"])
    def unban_users(self, request: HttpRequest,
                    queryset: QuerySet[User]) -> TemplateResponse | None:
        form = ReasonForm(request.POST if "confirm" in request.POST else None)
        if "confirm" in request.POST and form.is_valid():
            done = sum(1 for user in queryset if moderation.user_unban(
                actor=actor_of(request), user_id=user.pk,
                reason=form.cleaned_data["reason"]) is not None)
            self.message_user(request, f"{done} users unbanned.", messages.SUCCESS)
            return None
        return confirmation(request, self, title="Unban users", form=form,
                            objects=list(queryset), action="unban_users", warning=(
                                "Each account is active again; its players sign in for new "
                                "tokens. Matches a ban left stay as they ended."))
