"""The moderators' queue of reports (open ones first, oldest first) with their context: the
line reported, the match (a link to its page), and the reported player's recent reports and
standing. Answers are list actions behind the confirmation page that asks for a reason, as
every moderation action (``games.admin``); each goes through ``games.people.moderation`` and
leaves an audit entry."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.admin import Moderating, ReadOnly, ReasonForm, actor_of, confirmation
from games.models import AuditEntry
from games.people import moderation
from games.people.models import ChatLine, Report, Standing

RECENT_REPORTS = 10
Action = AuditEntry.Action


class MuteForm(ReasonForm):
    days = forms.IntegerField(min_value=1, max_value=365, initial=7,
                              help_text="The player cannot write in chat for this many days.")


# What each answer does, as its confirmation page says it.
ANSWERS: dict[str, tuple[str, str]] = {
    Action.DISMISS: ("Dismiss the selected reports", "Each report is closed; nobody is told."),
    Action.WARN: ("Warn the reported players", (
        "Each reported player gets a warning in their feed; their open reports close.")),
    Action.MUTE_CHAT: ("Mute the reported players' chat", (
        "Each reported player cannot write in chat for the days given; their open reports "
        "close.")),
    Action.SHADOW_BAN: ("Shadow-ban the reported players", (
        "Each reported player's new chat lines are shown to themselves alone; nobody is told. "
        "Their open reports close.")),
    Action.BAN: ("Ban the reported players", (
        "Each account is deactivated, its tokens and sessions end, and its running matches are "
        "left as the rules allow. Their open reports close.")),
}

# The list action that gives each answer.
ACTION_NAMES: dict[str, str] = {
    Action.DISMISS: "dismiss_reports", Action.WARN: "warn_players",
    Action.MUTE_CHAT: "mute_players", Action.SHADOW_BAN: "shadow_ban_players",
    Action.BAN: "ban_players"}


@admin.register(Report)
class ReportAdmin(Moderating, ReadOnly, admin.ModelAdmin):
    list_display = ["created_at", "status", "reason", "reporter", "player", "match_link",
                    "line_text"]
    list_filter = ["status", "reason"]
    search_fields = ["player__username", "reporter__username", "line_text"]
    readonly_fields = ("reporter", "player", "reason", "note", "match_link", "line_text",
                       "status", "created_at", "handled_at", "handled_by", "action",
                       "player_standing", "player_recent_reports")
    fields = readonly_fields
    actions = ["dismiss_reports", "warn_players", "mute_players", "shadow_ban_players",
               "ban_players"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        first_open = Case(When(status=Report.Status.OPEN, then=Value(0)), default=Value(1),
                          output_field=IntegerField())
        return (super().get_queryset(request).select_related("reporter", "player", "match")
                .order_by(first_open, "created_at", "id"))

    @admin.display(description="match")
    def match_link(self, report: Report) -> str:
        if report.match_id is None:
            return "-"
        url = reverse("admin:games_match_change", args=[report.match_id])
        return format_html('<a href="{}">{}</a>', url, str(report.match_id)[:8])

    @admin.display(description="player's standing")
    def player_standing(self, report: Report) -> str:
        standing = (Standing.objects.filter(user_id=report.player_id).first()
                    if report.player_id is not None else None)
        if standing is None:
            return "no warning, mute or shadow-ban"
        return (f"{standing.warnings} warnings; chat muted until "
                f"{standing.chat_muted_until or '-'}; shadow-banned: {standing.shadow_banned}")

    @admin.display(description="player's recent reports")
    def player_recent_reports(self, report: Report) -> str:
        if report.player_id is None:
            return "-"
        recent = (Report.objects.filter(player_id=report.player_id).exclude(pk=report.pk)
                  .order_by("-created_at")[:RECENT_REPORTS])
        lines = ChatLine.objects.filter(author_id=report.player_id).order_by("-id")[:5]
        reports = format_html_join("", "<li>{} {} ({}): {}</li>", (
            (r.created_at.date(), r.reason, r.status, r.line_text or r.note[:80])
            for r in recent)) or "none"
        said = format_html_join("", "<li>{}: {}</li>", ((line.created_at, line.body)
                                                       for line in lines)) or "none"
        return format_html("<p>Reports:</p><ul>{}</ul><p>Latest lines:</p><ul>{}</ul>",
                           reports, said)

    def _answer(self, request: HttpRequest, queryset: QuerySet[Report], action: str,
                form_class: type[ReasonForm] = ReasonForm) -> TemplateResponse | None:
        form: Any = form_class(request.POST if "confirm" in request.POST else None)
        title, warning = ANSWERS[action]
        if "confirm" in request.POST and form.is_valid():
            self._apply(request, queryset, action, form.cleaned_data)
            return None
        name = ACTION_NAMES[action]
        return confirmation(request, self, title=title, form=form, objects=list(queryset),
                            action=name, warning=warning)

    def _apply(self, request: HttpRequest, queryset: QuerySet[Report], action: str,
               data: dict[str, Any]) -> None:
        done = 0
        for report in queryset.order_by("id"):
            try:
                if action == Action.DISMISS:
                    moderation.report_dismiss(actor=actor_of(request), report_id=report.pk,
                                              reason=data["reason"])
                else:
                    moderation.report_act(actor=actor_of(request), report_id=report.pk,
                                          action=action, reason=data["reason"],
                                          days=data.get("days"))
            except ValueError as exc:
                self.message_user(request, f"Report {report.pk}: {exc}", messages.WARNING)
                continue
            done += 1
        self.message_user(request, f"{done} reports answered.", messages.SUCCESS)

    @admin.action(description=ANSWERS[Action.DISMISS][0], permissions=["moderate"])
    def dismiss_reports(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return self._answer(request, queryset, Action.DISMISS)

    @admin.action(description=ANSWERS[Action.WARN][0], permissions=["moderate"])
    def warn_players(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return self._answer(request, queryset, Action.WARN)

    @admin.action(description=ANSWERS[Action.MUTE_CHAT][0], permissions=["moderate"])
    def mute_players(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return self._answer(request, queryset, Action.MUTE_CHAT, MuteForm)

    @admin.action(description=ANSWERS[Action.SHADOW_BAN][0], permissions=["moderate"])
    def shadow_ban_players(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return self._answer(request, queryset, Action.SHADOW_BAN)

    @admin.action(description=ANSWERS[Action.BAN][0], permissions=["moderate"])
    def ban_players(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return self._answer(request, queryset, Action.BAN)


@admin.register(Standing)
class StandingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["user", "warnings", "chat_muted_until", "shadow_banned"]
    search_fields = ["user__username"]


@admin.register(ChatLine)
class ChatLineAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["created_at", "author", "match_id", "room", "shadowed", "body"]
    list_filter = ["room", "shadowed"]
    search_fields = ["author__username", "body"]
    raw_id_fields = ["match", "author"]
