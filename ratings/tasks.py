"""Celery tasks: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready

from ratings import services


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
