"""A list's recompute requested, queued and run.

The recompute's promise: the list equals a from-scratch replay of its approved
tournaments in date order, whatever order they were approved in. A request only
lowers `pending_from` and bumps `pending_version` on the list row; a run takes the
list's lock, replays from `pending_from` (or only the cone of the change), swaps the
history in one transaction and clears the request only if no newer one arrived meanwhile.
"""

from __future__ import annotations

import datetime as dt
import gc
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from celery import signature
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.db.models.functions import Coalesce, Least
from django.utils import timezone

from ratings.models import RatingList, RecomputeRun
from ratings.recompute.cone import cone_replay
from ratings.recompute.replay import replay
from ratings.recompute.store import Written, outcome_store
from ratings.systems.model import BadInput

logger = logging.getLogger(__name__)
RECOMPUTE_TASK = "ratings.tasks.recompute_rating_list"
LOCK_NAMESPACE = 7201  # first key of the PostgreSQL advisory lock; the list id is the second
# A swap of more history rows than this is followed by VACUUM ANALYZE (see _tidy_tables).
TIDY_AFTER_ROWS = 20000
# A run that wrote more live entries than this vacuums them (see _tidy_tables).
VACUUM_ENTRIES_AFTER = 500


def rating_list_request_recompute(
    *, rating_list: RatingList, from_date: dt.date, trigger: str
) -> None:
    """Ask for the list to be recomputed from `from_date`; the task runs after the commit."""
    _mark_pending(rating_list.pk, from_date)
    transaction.on_commit(lambda: recompute_enqueue(rating_list_id=rating_list.pk, trigger=trigger))


def _mark_pending(rating_list_id: int, from_date: dt.date) -> None:
    RatingList.objects.filter(pk=rating_list_id).update(
        pending_from=Least(Coalesce(F("pending_from"), from_date), from_date),
        pending_version=F("pending_version") + 1,
        state=RatingList.State.WAITING,
    )


def recompute_enqueue(*, rating_list_id: int, trigger: str) -> bool:
    """`delay`, but a broker outage must not turn a recorded approval into an error:
    the request stays in the database and the sweep (or `manage.py recompute`) runs it.

    The task is named, not imported: `ratings.tasks` calls this module, so importing it
    back would make a cycle. `RatingsConfig.ready` registers the tasks in every process,
    so the signature finds the task (and honours the in-process mode without a broker)."""
    try:
        signature(RECOMPUTE_TASK, args=(rating_list_id, trigger)).delay()
    except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not queued now"
        logger.warning(
            "Could not queue the recompute of list %s; it stays pending.",
            rating_list_id,
            exc_info=True,
        )
        return False
    return True


def pending_list_ids() -> list[int]:
    return list(RatingList.objects.filter(pending_from__isnull=False).values_list("pk", flat=True))


def list_lock(rating_list_id: int) -> None:
    """One recompute per list at a time. SQLite serialises writers by itself."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])


def lists_lock(rating_list_ids: list[int], *, wait_seconds: float) -> bool:
    """The recompute locks of several lists (`list_lock`), taken in id order so that two
    callers never wait on each other crosswise, each waited for at most `wait_seconds`
    (a running recompute holds its list's lock to its end). False when one was still
    held then: the caller rolls back, which lets go of those it took."""
    if connection.vendor != "postgresql":
        return True
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true)",
                [f"{int(wait_seconds * 1000)}ms"],
            )
            (previous, _set) = cursor.fetchone()
            for rating_list_id in sorted(set(rating_list_ids)):
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, rating_list_id]
                )
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [previous])
    except OperationalError:  # lock_timeout: a recompute still runs
        return False
    return True


def rating_list_recompute(
    *, rating_list_id: int, trigger: str, from_date: dt.date | None = None
) -> RecomputeRun | None:
    """Run the pending recompute of one list (or force one from `from_date`).

    Returns the run's log, or None when nothing was pending. Bad data in a table
    (the engine refuses it) fails the run with the message and is not retried;
    any other error propagates so that the task retries, leaving the old history.
    """
    if from_date is not None:
        _mark_pending(rating_list_id, from_date)
    _close_interrupted_runs(rating_list_id)
    run = RecomputeRun.objects.create(rating_list_id=rating_list_id, trigger=trigger[:40])
    started = time.perf_counter()
    RatingList.objects.filter(pk=rating_list_id, pending_from__isnull=False).update(
        state=RatingList.State.RECOMPUTING
    )
    try:
        with transaction.atomic(), gc_paused():
            list_lock(rating_list_id)
            rating_list = RatingList.objects.get(pk=rating_list_id)
            if rating_list.pending_from is None:
                run.delete()
                return None
            run.from_date = rating_list.pending_from
            # `rated_at` of what this run rates: a table approved again after this moment
            # is newer than its rating, and the next run's cone starts from it.
            read_at = timezone.now()
            outcome = None
            if from_date is None:  # a request: replay what its change can reach
                outcome = cone_replay(rating_list, rating_list.pending_from, write_changed=True)
            if outcome is None:
                outcome = replay(rating_list, rating_list.pending_from, to_store=True)
            written = outcome_store(rating_list, outcome, read_at=read_at)
            # Free the replay's millions of objects while the collector is still paused:
            # back on, its first pass would walk them all (a second at EGD scale).
            outcome.rows.clear()
            outcome.states.clear()
            still_pending = not RatingList.objects.filter(
                pk=rating_list_id, pending_version=rating_list.pending_version
            ).update(pending_from=None, state=RatingList.State.RATED, last_error="")
    except BadInput as error:
        _finish(run, started, outcome=RecomputeRun.Outcome.FAILED, error=str(error))
        RatingList.objects.filter(pk=rating_list_id).update(
            state=RatingList.State.FAILED, last_error=str(error)
        )
        return run
    except Exception as error:
        _finish(run, started, outcome=RecomputeRun.Outcome.FAILED, error=repr(error))
        RatingList.objects.filter(pk=rating_list_id).update(
            state=RatingList.State.FAILED, last_error=repr(error)
        )
        raise
    _tidy_tables(written)
    run.tournaments, run.games = outcome.tournaments, outcome.games
    run.engine_ms = int(outcome.engine_seconds * 1000)
    _finish(run, started, outcome=RecomputeRun.Outcome.SUCCESS)
    if still_pending:
        # A request arrived during the run; its own task may be waiting on the lock already,
        # but queue one more so nothing depends on that.
        RatingList.objects.filter(pk=rating_list_id).update(state=RatingList.State.WAITING)
        recompute_enqueue(rating_list_id=rating_list_id, trigger="request during a run")
    return run


def recompute_priority_lower() -> int:
    """Lower this process's CPU priority by `settings.RECOMPUTE_NICENESS` (os.nice; it
    cannot be raised back): for the Celery worker's processes and `manage.py recompute
    --nice`, never for a web worker. Readers never wait on a recompute's locks, but on a
    2-core machine they wait for a core; the kernel then serves them first. Returns the
    new niceness."""
    niceness = max(0, int(getattr(settings, "RECOMPUTE_NICENESS", 0)))
    return os.nice(niceness) if hasattr(os, "nice") else 0


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the run, back on (if it was) after.

    A replay allocates millions of small objects (the engine's input and output, the
    history rows) that it keeps until the store; every few thousand allocations the
    collector walks all of them again, which took half of a full recompute at EGD scale
    (issue 18). Nothing a replay builds is a reference cycle: reference counting frees it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _tidy_tables(written: Written) -> None:
    """After a big swap, refresh the planner's statistics, and reclaim dead rows once they
    are a good part of a table; after many live entries written, vacuum them.

    A recompute may rewrite many history rows; without this, dead rows pile up
    (autovacuum may be slow, or off) and stale statistics turn the next replay's index
    probes into table scans. A VACUUM reads the whole table, so it waits until a fifth of
    it is dead (a retroactive insert rewrites about a year's rows; a full recompute of an
    unchanged list none). The live entries are small (45,000 at EGD scale) and the list's
    pages find a deep page in their rating index alone only where VACUUM has marked the
    table's pages all-visible (the list lowest first at its middle page: 39 ms so, 47 ms
    with 700 entries changed unvacuumed). They are vacuumed without parallel workers for
    their six indexes: starting two took longer than it saved (after a retroactive
    insert's 700 entries, 13-14 ms a vacuum, against 16-25 with them). Runs after the
    commit: VACUUM cannot run in a transaction.
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return
    vacuum_entries = written.entries > VACUUM_ENTRIES_AFTER
    with connection.cursor() as cursor:
        if written.rows > TIDY_AFTER_ROWS:
            cursor.execute(
                "SELECT relname, n_dead_tup > 0.2 * GREATEST(n_live_tup, 1), "
                "%s > 0.1 * n_live_tup FROM pg_stat_user_tables "
                "WHERE relname IN ('ratings_ratinghistory', 'ratings_ratingentry')",
                [written.rows],
            )
            for table, bloated, big in cursor.fetchall():
                if table == "ratings_ratinghistory" and written.history_swapped:
                    continue  # a fresh table: no dead rows, its statistics taken in the swap
                # Under a tenth of the table rewritten (a retroactive table a year back:
                # about 9% of the EGD history) leaves its statistics good; autovacuum's own
                # threshold.
                if bloated or big:
                    cursor.execute(f"{'VACUUM (ANALYZE)' if bloated else 'ANALYZE'} {table}")
                if bloated and table == "ratings_ratingentry":
                    vacuum_entries = False  # just done
        if vacuum_entries:
            cursor.execute("VACUUM (PARALLEL 0) ratings_ratingentry")


def _finish(run: RecomputeRun, started: float, *, outcome: str, error: str = "") -> None:
    run.finished_at = timezone.now()
    run.duration_ms = int((time.perf_counter() - started) * 1000)
    run.outcome = outcome
    run.error = error
    run.save()


def _close_interrupted_runs(rating_list_id: int) -> None:
    """A run left 'running' by a killed worker is over; say so in the log."""
    if connection.vendor == "postgresql":
        # Runs still holding the list's lock are alive; only look when it is free.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])
            (free,) = cursor.fetchone()
            if not free:
                return
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])
    RecomputeRun.objects.filter(
        rating_list_id=rating_list_id, outcome=RecomputeRun.Outcome.RUNNING
    ).update(
        outcome=RecomputeRun.Outcome.FAILED,
        error="interrupted (worker stopped)",
        finished_at=timezone.now(),
    )
