"""Queue the e-mail that tells people what happened to a results table.

The workflow steps call `event_mail_queue` with the log row they wrote; the mail goes
after the commit (a rolled-back step sends nothing) through the task queue, never inside
the request. The task and the service that writes the mail live in `ratings` (the
approval mail carries the rating changes), so the task is named here, not imported, as
`ratings.recompute.services` does for the recompute.
"""

from __future__ import annotations

import logging

from celery import signature
from django.db import transaction

from tournaments.models import TournamentLog

logger = logging.getLogger(__name__)

EVENT_MAIL_TASK = "ratings.tasks.send_tournament_event_mail"
MAILED_ACTIONS = {
    TournamentLog.Action.SUBMITTED,
    TournamentLog.Action.APPROVED,
    TournamentLog.Action.REJECTED,
    TournamentLog.Action.REOPENED,
    TournamentLog.Action.NOTE,
}


def event_mail_queue(*, log: TournamentLog) -> None:
    """Send the mail of this event once the transaction commits."""
    if log.action not in MAILED_ACTIONS:
        return
    log_id = log.pk
    transaction.on_commit(lambda: event_mail_enqueue(log_id=log_id))


def event_mail_enqueue(*, log_id: int) -> bool:
    """`delay`, but a broker outage must not turn a recorded decision into an error."""
    try:
        signature(EVENT_MAIL_TASK, args=(log_id,)).delay()
    except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not queued now"
        logger.warning("Could not queue the mail of tournament log %s.", log_id, exc_info=True)
        return False
    return True
