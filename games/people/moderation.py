"""The moderators' answers to a report: dismiss it, warn the player, mute their chat for some
days, shadow-ban them (their lines shown to themselves alone) or ban them
(``games.services.moderation.user_ban``). Each answer leaves an audit entry, like every staff
action, with the report it answers; an answer about the player closes every open report about
them with it. The admin (``games.people.admin``) is the only caller."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import AuditEntry, UserEvent
from games.people.models import Report, Standing
from games.services.moderation import audit_record, reason_checked, user_ban
from games.services.notifications import notify

Action = AuditEntry.Action
# The answers about the reported player (the others: dismiss).
PLAYER_ACTIONS = (Action.WARN, Action.MUTE_CHAT, Action.SHADOW_BAN, Action.BAN)


def _open_report(report_id: int) -> Report:
    report = Report.objects.select_for_update().get(pk=report_id)
    if report.status != Report.Status.OPEN:
        raise ValueError("This report was answered already.")
    return report


def _close(reports: list[Report], *, actor: User, action: str) -> None:
    now = timezone.now()
    for report in reports:
        report.status = (Report.Status.DISMISSED if action == Action.DISMISS
                         else Report.Status.ACTED)
        report.handled_at, report.handled_by, report.action = now, actor, action
        report.save(update_fields=["status", "handled_at", "handled_by", "action"])


@transaction.atomic
def report_dismiss(*, actor: User, report_id: int, reason: str) -> AuditEntry:
    """Close a report with no action against anyone."""
    reason = reason_checked(reason)
    report = _open_report(report_id)
    _close([report], actor=actor, action=Action.DISMISS)
    return audit_record(actor=actor, action=Action.DISMISS, reason=reason, match=report.match,
                        user=report.player, report=report.pk)


@transaction.atomic
def report_act(*, actor: User, report_id: int, action: str, reason: str,
               days: int | None = None) -> AuditEntry | None:
    """Answer a report about a player with ``action`` (``PLAYER_ACTIONS``; ``days`` for a chat
    mute); every open report about the player is closed with it. Returns the audit entry (a
    ban that finds the player banned already records none)."""
    reason = reason_checked(reason)
    if action not in PLAYER_ACTIONS:
        raise ValueError(f"Unknown action {action!r}.")
    report = _open_report(report_id)
    player = report.player
    if player is None:
        raise ValueError("This report names no player: dismiss it, or act on the match.")
    if player.is_bot or player.pk == actor.pk:
        raise ValueError("Bots and one's own account are not moderated.")
    reports = [report, *Report.objects.select_for_update().filter(
        player=player, status=Report.Status.OPEN).exclude(pk=report.pk)]
    entry = _apply(actor=actor, player=player, action=action, reason=reason, days=days,
                   report=report)
    _close(reports, actor=actor, action=action)
    return entry


def _apply(*, actor: User, player: User, action: str, reason: str, days: int | None,
           report: Report) -> AuditEntry | None:
    if action == Action.BAN:
        return user_ban(actor=actor, user_id=player.pk, reason=reason).entry
    standing, _ = Standing.objects.select_for_update().get_or_create(user=player)
    data: dict[str, object] = {"report": report.pk}
    if action == Action.WARN:
        standing.warnings += 1
        standing.save(update_fields=["warnings"])
        notify(user_ids=[player.pk], type=UserEvent.Type.WARNED, match=report.match)
        data["warnings"] = standing.warnings
    elif action == Action.MUTE_CHAT:
        if days is None or days < 1:
            raise ValueError("A chat mute lasts at least a day.")
        standing.chat_muted_until = timezone.now() + timedelta(days=days)
        standing.save(update_fields=["chat_muted_until"])
        data.update(days=days, until=standing.chat_muted_until.isoformat())
    else:
        standing.shadow_banned = True
        standing.save(update_fields=["shadow_banned"])
    return audit_record(actor=actor, action=action, reason=reason, match=report.match,
                        user=player, **data)
