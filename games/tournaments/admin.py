"""The tournament admin: tournaments, entries and pairings are read-only here; staff with the
``games.moderate`` permission create official tournaments, cancel tournaments, disqualify
players and adjust results through the staff services (games.tournaments.services.staff),
each behind a confirmation page that asks for a reason, each into the audit log."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from config.exceptions import ApplicationError
from games.admin import (
    Moderating,
    ReadOnly,
    ReasonForm,
    actor_of,
    confirmation,
    reasoned_action,
)
from games.catalog import engines
from games.kit.protocol import EngineError
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services import staff
from games.tournaments.services.creation import Settings


class OfficialForm(ReasonForm):
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=[])
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    starts_at = forms.DateTimeField(help_text="UTC, e.g. 2027-01-10 18:00.")
    days_per_turn = forms.IntegerField(min_value=1, max_value=30, initial=3)
    settings = forms.JSONField(required=False, initial=dict, help_text=(
        "Any other setting as the API's create request takes it, e.g. "
        '{"rounds": 7, "players_per_match": 2, "max_players": 64, "min_rating": 1400}.'))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = [(slug, engine.name) for slug, engine in sorted(engines().items())]

    def settings_value(self) -> Settings:
        data = self.cleaned_data
        extra = data.get("settings") or {}
        if not isinstance(extra, dict) or "time_control" in extra:
            raise ValueError("The other settings are an object (the clock is set above).")
        return Settings(name=data["name"], game=data["game"], format=data["format"],
                        starts_at=data["starts_at"], time_control={
                            "kind": "per_move", "turn_seconds": data["days_per_turn"] * 86400},
                        **extra)


class ResultForm(ReasonForm):
    ranks = forms.CharField(required=False, help_text=(
        "Each seat's place, in seat order, 0 first, e.g. \"0, 1\" or \"0, 0\" for a draw; "
        "empty voids the result (it counts for nobody)."))

    def ranks_value(self) -> list[int] | None:
        text = (self.cleaned_data.get("ranks") or "").strip()
        if not text:
            return None
        try:
            return [int(part) for part in text.split(",")]
        except ValueError:
            raise ValueError("Ranks are whole numbers separated by commas.") from None


class EntryInline(ReadOnly, admin.TabularInline):
    model = Entry
    extra = 0
    fields = readonly_fields = ("user", "seed_rating", "joined_at", "late", "withdrawal",
                                "position", "final_rank")


@admin.register(Tournament)
class TournamentAdmin(Moderating, ReadOnly, admin.ModelAdmin):
    list_display = ["name", "game", "format", "status", "official", "starts_at",
                    "current_round", "rounds"]
    list_filter = ["game", "format", "status", "official"]
    search_fields = ["name", "created_by__username"]
    readonly_fields = [field.name for field in Tournament._meta.fields if field.name != "seed"]
    exclude = ["seed"]
    inlines = [EntryInline]
    actions = ["cancel_tournaments"]

    def get_urls(self) -> list[URLPattern]:
        own = [path("official/", self.admin_site.admin_view(self.official_view),
                    name="tournaments_tournament_official")]
        return own + super().get_urls()

    def official_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        form = OfficialForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                tournament = staff.tournament_create_official(
                    actor=actor_of(request), settings=form.settings_value(),
                    reason=form.cleaned_data["reason"])
            except (ApplicationError, EngineError) as exc:
                self.message_user(request, f"Not created: {exc.message}", messages.ERROR)
            except (ValueError, TypeError) as exc:
                self.message_user(request, f"Not created: {exc}", messages.ERROR)
            else:
                self.message_user(request, "The official tournament is created.",
                                  messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:tournaments_tournament_change",
                                                    args=[tournament.pk]))
        return confirmation(request, self, title="Create an official tournament", form=form,
                            objects=["a new official tournament"], warning=(
                                "It is shown as the site's own event and takes entries "
                                "until its start."))

    @admin.action(description="Cancel the selected tournaments", permissions=["moderate"])
    def cancel_tournaments(self, request: HttpRequest,
                           queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        return reasoned_action(
            request, self, queryset, title="Cancel tournaments", action="cancel_tournaments",
            warning=("Each ends as cancelled; its matches under way go on as ordinary matches "
                     "and no longer count."),
            act=lambda tournament, reason: staff.tournament_cancel(
                actor=actor_of(request), tournament_id=tournament.pk, reason=reason),
            done="{count} tournaments cancelled.")


@admin.register(Entry)
class EntryAdmin(Moderating, ReadOnly, admin.ModelAdmin):
    list_display = ["tournament", "user", "seed_rating", "withdrawal", "position", "final_rank"]
    list_filter = ["withdrawal"]
    search_fields = ["user__username", "tournament__name"]
    actions = ["disqualify_entries"]

    @admin.action(description="Disqualify the selected players", permissions=["moderate"])
    def disqualify_entries(self, request: HttpRequest,
                           queryset: QuerySet[Entry]) -> TemplateResponse | None:
        return reasoned_action(
            request, self, queryset, title="Disqualify players", action="disqualify_entries",
            warning=("Each is withdrawn and told so; their tournament matches under way are "
                     "forfeited (or called off before anyone moved)."),
            act=lambda entry, reason: staff.entry_disqualify(
                actor=actor_of(request), tournament_id=entry.tournament_id,
                user_id=entry.user_id, reason=reason),
            done="{count} players disqualified.")


@admin.register(Pairing)
class PairingAdmin(Moderating, ReadOnly, admin.ModelAdmin):
    list_display = ["id", "tournament", "round", "players_text", "ranks", "void", "ended_at",
                    "adjust_link"]
    list_filter = ["void"]
    raw_id_fields = ["match"]

    @admin.display(description="players")
    def players_text(self, pairing: Pairing) -> str:
        return json.dumps(pairing.players)

    @admin.display(description="result")
    def adjust_link(self, pairing: Pairing) -> str:
        if pairing.ended_at is None or pairing.is_bye:
            return ""
        return format_html('<a href="{}">adjust</a>',
                           reverse("admin:tournaments_pairing_adjust", args=[pairing.pk]))

    def get_urls(self) -> list[URLPattern]:
        own = [path("<int:pairing_id>/adjust/", self.admin_site.admin_view(self.adjust_view),
                    name="tournaments_pairing_adjust")]
        return own + super().get_urls()

    def adjust_view(self, request: HttpRequest, pairing_id: int) -> HttpResponse:
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        pairing = get_object_or_404(Pairing, pk=pairing_id)
        form = ResultForm(request.POST or None, initial={
            "ranks": ", ".join(str(rank) for rank in pairing.ranks or [])})
        if request.method == "POST" and form.is_valid():
            try:
                staff.pairing_result_adjust(actor=actor_of(request), pairing_id=pairing.pk,
                                            ranks=form.ranks_value(),
                                            reason=form.cleaned_data["reason"])
            except ValueError as exc:
                self.message_user(request, f"Not adjusted: {exc}", messages.ERROR)
            else:
                self.message_user(request, "The result is adjusted.", messages.SUCCESS)
            return HttpResponseRedirect(reverse("admin:tournaments_pairing_change",
                                                args=[pairing.pk]))
        return confirmation(request, self, title=f"Adjust the result of pairing {pairing.pk}",
                            form=form, objects=[pairing], warning=(
                                "The tournament counts this result from now on; the match "
                                "keeps its own."))
