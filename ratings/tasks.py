"""Celery tasks: each takes ids and calls one service."""

from __future__ import annotations

from smtplib import SMTPException

from celery import Task, shared_task
from celery.signals import worker_process_init, worker_ready

from ratings import mail
from ratings.recompute import services


@shared_task(
    name=services.RECOMPUTE_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(Exception,),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=6,
)
def recompute_rating_list(rating_list_id: int, trigger: str = "approval") -> int | None:
    run = services.rating_list_recompute(rating_list_id=rating_list_id, trigger=trigger)
    return run.pk if run is not None else None


@shared_task
def sweep_pending_recomputes() -> int:
    """Queue every list whose request is still pending (broker was down, worker killed)."""
    ids = services.pending_list_ids()
    for rating_list_id in ids:
        recompute_rating_list.delay(rating_list_id, "sweep")
    return len(ids)


@worker_ready.connect
def _sweep_on_start(**_: object) -> None:
    sweep_pending_recomputes.delay()


# The approval mail waits for the lists' recompute: this many tries, this far apart.
MAIL_WAIT_TRIES = 20
MAIL_WAIT_SECONDS = 15


@shared_task(
    name="ratings.tasks.send_tournament_event_mail",
    bind=True,
    acks_late=True,
    autoretry_for=(OSError, SMTPException),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=MAIL_WAIT_TRIES,
)
def send_tournament_event_mail(self: Task, log_id: int) -> int:
    """The mail of one workflow step (`tournaments.review.notifications` queues it by name)."""
    last_try = self.request.is_eager or self.request.retries >= MAIL_WAIT_TRIES
    try:
        return mail.tournament_event_mail_send(log_id=log_id, wait_for_ratings=not last_try)
    except mail.RatingsPending as pending:
        raise self.retry(countdown=MAIL_WAIT_SECONDS, exc=pending) from pending


@worker_process_init.connect
def _lower_priority(**_: object) -> None:
    """The worker's processes run recomputes: below the web workers (RECOMPUTE_NICENESS)."""
    services.recompute_priority_lower()
