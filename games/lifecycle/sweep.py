"""The account sweep (Celery beat): the account work that fell due or waited too long.

Deletions whose grace period is over are done here, one account per transaction
(``erasure.account_delete``; one that fails is logged and tried again at the next run, the
others go on); export builds and password reset mails whose task has waited past
ACCOUNT_WORK_GRACE_SECONDS are queued again (each stamped, so it is queued again only after
another grace period; a task that arrives twice finds the work done and does nothing); expired
export archives are deleted.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from accounts.closing import deletions_due
from accounts.models import DataExport, PasswordResetRequest
from games.lifecycle.erasure import account_delete
from games.services import scheduling

logger = logging.getLogger(__name__)


def account_work_sweep(*, now: datetime | None = None, limit: int = 100) -> dict[str, int]:
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.ACCOUNT_WORK_GRACE_SECONDS)
    done = {"deleted": 0, "failed": 0, "exports_requeued": 0, "resets_requeued": 0,
            "exports_expired": 0}
    for user_id in deletions_due(now=now, limit=limit):
        try:
            if account_delete(user_id=user_id, now=now) is not None:
                done["deleted"] += 1
        except Exception:  # one account's failure holds back no other: it is tried next run
            logger.exception("the deletion of account %s failed; it is tried again", user_id)
            done["failed"] += 1
    exports = list(DataExport.objects.filter(build_due_at__lte=cutoff)
                   .order_by("build_due_at").values_list("pk", flat=True)[:limit])
    DataExport.objects.filter(pk__in=exports).update(build_due_at=now)
    for export_id in exports:
        scheduling.send(scheduling.EXPORT_BUILD, (str(export_id),))
    done["exports_requeued"] = len(exports)
    resets = list(PasswordResetRequest.objects.filter(send_due_at__lte=cutoff)
                  .order_by("send_due_at").values_list("pk", flat=True)[:limit])
    PasswordResetRequest.objects.filter(pk__in=resets).update(send_due_at=now)
    for request_id in resets:
        scheduling.send(scheduling.PASSWORD_RESET_SEND, (request_id,))
    done["resets_requeued"] = len(resets)
    done["exports_expired"], _ = DataExport.objects.filter(expires_at__lte=now).delete()
    return done
