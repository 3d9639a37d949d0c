"""Rating lists' workflows: queue and run recomputes, preview an approval, publish snapshots.

The recompute's promise: the list equals a from-scratch replay of its approved
tournaments in date order, whatever order they were approved in. A request only
lowers `pending_from` and bumps `pending_version` on the list row; a run takes the
list's lock, replays from `pending_from`, swaps the history in one transaction and
clears the request only if no newer one arrived meanwhile.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from dataclasses import dataclass
from typing import Any

from celery import signature
from django.db import connection, transaction
from django.db.models import F
from django.db.models.functions import Coalesce, Least
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.members import effective_birth_date
from clubsite.models import Member
from ratings import rules
from ratings.bulk import as_json, breakdown_json, insert_rows, merge_rows
from ratings.cone import cone_replay
from ratings.models import (
    ListTournament,
    PublishedEntry,
    PublishedList,
    RatingEntry,
    RatingHistory,
    RatingList,
    RecomputeRun,
)
from ratings.replay import (
    MemberState,
    ReplayOutcome,
    hand_on_publications,
    replay,
    states_before,
)
from ratings.systems.grades import Grade
from ratings.systems.model import BadInput
from tournaments.models import Tournament

logger = logging.getLogger(__name__)
RECOMPUTE_TASK = "ratings.tasks.recompute_rating_list"
HISTORY_COLUMNS = [
    "member_id", "tournament_id", "date", "sequence", "rating_in", "before", "after", "change",
    "games_count", "rated", "provisional", "anomalous", "reset", "grade", "list_grade",
    "klass", "note", "history", "breakdown",
]  # fmt: skip
LOCK_NAMESPACE = 7201  # first key of the PostgreSQL advisory lock; the list id is the second
# A swap of more history rows than this is followed by VACUUM ANALYZE (see _tidy_tables).
TIDY_AFTER_ROWS = 20000


def rating_list_create(
    *,
    slug: str,
    system: str,
    name: str = "",
    game: str = "go",
    params: dict[str, Any] | None = None,
) -> RatingList:
    rating_list = RatingList(
        slug=slug, system=system, name=name or slug, game=game, params=params or {}
    )
    rating_list.full_clean()
    rating_list.save()
    return rating_list


# --- requests -----------------------------------------------------------------------


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


# --- the run ------------------------------------------------------------------------


def _lock(rating_list_id: int) -> None:
    """One recompute per list at a time. SQLite serialises writers by itself."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, rating_list_id])


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
        with transaction.atomic():
            _lock(rating_list_id)
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
                outcome = cone_replay(rating_list, rating_list.pending_from)
            if outcome is None:
                outcome = replay(rating_list, rating_list.pending_from)
            written = _store(rating_list, outcome, read_at=read_at)
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


def _tidy_tables(rows_swapped: int) -> None:
    """After a big swap, refresh the planner's statistics, and reclaim dead rows once they
    are a good part of a table.

    A recompute may rewrite many history rows; without this, dead rows pile up
    (autovacuum may be slow, or off) and stale statistics turn the next replay's index
    probes into table scans. A VACUUM reads the whole table, so it waits until a fifth of
    it is dead (a retroactive insert rewrites about a year's rows; a full recompute of an
    unchanged list none). Runs after the commit: VACUUM cannot run in a transaction.
    """
    if (
        connection.vendor != "postgresql"
        or connection.in_atomic_block
        or rows_swapped <= TIDY_AFTER_ROWS
    ):
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_dead_tup > 0.2 * GREATEST(n_live_tup, 1) FROM pg_stat_user_tables "
            "WHERE relname IN ('ratings_ratinghistory', 'ratings_ratingentry')"
        )
        for table, bloated in cursor.fetchall():
            cursor.execute(f"{'VACUUM (ANALYZE)' if bloated else 'ANALYZE'} {table}")


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


def _store(rating_list: RatingList, outcome: ReplayOutcome, *, read_at: dt.datetime) -> int:
    """Replace the history from the replay's date on and refresh the live entries.
    Returns how many rows were written (PostgreSQL writes only the rows that changed)."""
    history_rows = (
        (
            rating_list.pk,
            *(getattr(row, name) for name in HISTORY_COLUMNS[:-2]),
            as_json(row.history),
            breakdown_json(row.breakdown),
        )
        for row in outcome.rows
    )
    scope = outcome.scope  # None: every row from the date; else a cone replay's tournaments
    if connection.vendor == "postgresql":
        condition, params = (
            "t.rating_list_id = %s AND t.date >= %s",
            [
                rating_list.pk,
                outcome.from_date,
            ],
        )
        if scope is not None:
            condition, params = condition + " AND t.tournament_id = ANY(%s)", [*params, scope]
        removed, written = merge_rows(
            RatingHistory,
            ["rating_list_id", *HISTORY_COLUMNS],
            history_rows,
            key=("rating_list_id", "member_id", "tournament_id"),
            scope=condition,
            params=params,
        )
        affected = {member_id for _list, member_id, _tournament in removed}
    else:
        stale = RatingHistory.objects.filter(rating_list=rating_list, date__gte=outcome.from_date)
        if scope is not None:
            stale = stale.filter(tournament_id__in=scope)
        affected = set(stale.values_list("member_id", flat=True))
        written = stale.delete()[0]
        written += insert_rows(RatingHistory, ["rating_list_id", *HISTORY_COLUMNS], history_rows)
    affected |= outcome.touched | outcome.restarted
    written += _move_sequences(rating_list, outcome.sequences)
    # Players who lost tournaments from the date on but play none in the replay (a table
    # taken out) fall back to where their stored history, without it, leaves them.
    missing = sorted(affected - set(outcome.states))
    outcome.states.update(states_before(rating_list, dt.date.max, missing))
    written += _refresh_entries(rating_list, outcome, affected)
    links = ListTournament.objects.filter(
        rating_list=rating_list, tournament__end_date__gte=outcome.from_date
    )
    if scope is not None:
        links = links.filter(tournament_id__in=scope)
    links.filter(tournament_id__in=outcome.rated_ids).update(
        rated_at=read_at, not_rated_reason="", applied_class=""
    )
    _store_applied_classes(links, outcome.applied_classes)
    for tournament_id, reason in outcome.not_rated.items():
        links.filter(tournament_id=tournament_id).update(
            rated_at=None, not_rated_reason=reason, applied_class=""
        )
    links.exclude(tournament_id__in=outcome.rated_ids).exclude(
        tournament_id__in=list(outcome.not_rated)
    ).update(rated_at=None, applied_class="")
    return written


def _store_applied_classes(links: Any, classes: dict[int, str]) -> None:
    """egf.md §8: the class each tournament was rated at, after the time-control cap."""
    by_class: dict[str, list[int]] = {}
    for tournament_id, klass in classes.items():
        by_class.setdefault(klass, []).append(tournament_id)
    for klass, ids in by_class.items():
        links.filter(tournament_id__in=ids).update(applied_class=klass)


def _move_sequences(rating_list: RatingList, sequences: dict[int, int]) -> int:
    """A cone replay keeps the rows of tournaments outside the cone; their replay position
    still moves when a tournament is put in or taken out before them."""
    if not sequences:
        return 0
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE ratings_ratinghistory t SET sequence = v.sequence "
                "FROM unnest(%s::bigint[], %s::integer[]) AS v(tournament_id, sequence) "
                "WHERE t.rating_list_id = %s AND t.tournament_id = v.tournament_id "
                "AND t.sequence <> v.sequence",
                [list(sequences), list(sequences.values()), rating_list.pk],
            )
            return cursor.rowcount
    moved = 0
    for tournament_id, sequence in sequences.items():
        moved += (
            RatingHistory.objects.filter(rating_list=rating_list, tournament_id=tournament_id)
            .exclude(sequence=sequence)
            .update(sequence=sequence)
        )
    return moved


def _refresh_entries(rating_list: RatingList, outcome: ReplayOutcome, affected: set[int]) -> int:
    affected_ids = sorted(affected)
    entry_rows = (
        _entry_row(rating_list, member_id, outcome.states[member_id])
        for member_id in affected_ids
        # No state, or no tournament left: his only tournaments were taken out
        # (a member the baseline names keeps his entry).
        if member_id in outcome.states
        and (outcome.states[member_id].tournaments or outcome.states[member_id].from_baseline)
    )
    if connection.vendor == "postgresql":
        _removed, written = merge_rows(
            RatingEntry,
            ENTRY_COLUMNS,
            entry_rows,
            key=("rating_list_id", "member_id"),
            scope="t.rating_list_id = %s AND t.member_id = ANY(%s)",
            params=[rating_list.pk, affected_ids],
        )
        return written
    written = 0
    for start in range(0, len(affected_ids), 20000):
        written += RatingEntry.objects.filter(
            rating_list=rating_list, member_id__in=affected_ids[start : start + 20000]
        ).delete()[0]
    return written + insert_rows(RatingEntry, ENTRY_COLUMNS, entry_rows)


ENTRY_COLUMNS = [
    "rating_list_id", "member_id", "rating", "rated", "provisional", "grade", "best_grade",
    "tournaments", "games", "last_played", "active_until", "history",
]  # fmt: skip


def _entry_row(rating_list: RatingList, member_id: int, state: MemberState) -> tuple[Any, ...]:
    active_until = None
    if rating_list.system == "egf" and state.last_played is not None:
        grade = Grade.from_rank(state.grade) if state.grade is not None else None
        active_until = rules.egf_active_until(state.last_played, grade)
    return (
        rating_list.pk,
        member_id,
        state.rating,
        state.rating is not None,
        state.provisional,
        state.grade,
        state.best_grade,
        state.tournaments,
        state.games,
        state.last_played,
        active_until,
        as_json(state.history),
    )


# --- impact preview -----------------------------------------------------------------


@dataclass(frozen=True)
class Impact:
    rating_list: RatingList
    member: Member
    rating_from: float | None
    rating_to: float | None

    @property
    def change(self) -> float | None:
        if self.rating_to is None:
            return None
        return self.rating_to - (self.rating_from or 0.0) if self.rating_from is not None else None


@dataclass(frozen=True)
class ListImpact:
    rating_list: RatingList
    impacts: list[Impact]
    error: str = ""
    not_rated_reason: str = ""


def rating_impact_preview(*, tournament: Tournament) -> list[ListImpact]:
    """If this table were approved, whose ratings would change, from what to what.

    Replays each list from the table's date with the table in, and compares the
    end states with the live list. Writes nothing.
    """
    previews = []
    for rating_list in tournament.rating_lists.order_by("name"):
        try:
            outcome = replay(rating_list, tournament.end_date, include=tournament)
        except BadInput as error:
            previews.append(ListImpact(rating_list, [], error=str(error)))
            continue
        current = dict(
            RatingEntry.objects.filter(
                rating_list=rating_list, member_id__in=outcome.touched
            ).values_list("member_id", "rating")
        )
        changed = {
            member_id: (current.get(member_id), outcome.states[member_id].rating)
            for member_id in outcome.touched
            if current.get(member_id) != outcome.states[member_id].rating
        }
        members = Member.objects.in_bulk(list(changed))
        impacts = [
            Impact(rating_list, members[member_id], before, after)
            for member_id, (before, after) in changed.items()
        ]
        impacts.sort(key=lambda i: (-(i.rating_to or 0), i.member.family_name))
        previews.append(
            ListImpact(
                rating_list, impacts, not_rated_reason=outcome.not_rated.get(tournament.pk, "")
            )
        )
    return previews


# --- publication --------------------------------------------------------------------


class PublicationRefused(ValueError):
    """A publication date the list's rules do not allow (the message says why)."""


def publication_date_check(*, rating_list: RatingList, date: dt.date) -> None:
    """Refuse a date no publication may have: in the future (a snapshot of a list that
    later approvals would still change), already used, not after the list's last
    publication (each one starts from what the previous one left, ufgo.md B9), or, for
    UFGO, not a quarter day (1.5: 1 January, 1 April, 1 July, 1 October)."""
    today = timezone.localdate()
    if date > today:
        raise PublicationRefused(
            _("A list cannot be published on a future date (%(date)s; today is %(today)s).")
            % {"date": date.isoformat(), "today": today.isoformat()}
        )
    if rules.has_floating_grades(rating_list.system) and not rules.is_quarter_day(date):
        raise PublicationRefused(
            _(
                "%(list)s is published on 1 January, 1 April, 1 July or 1 October only, not on %(date)s."
            )
            % {"list": rating_list.name, "date": date.isoformat()}
        )
    published = PublishedList.objects.filter(rating_list=rating_list)
    if published.filter(date=date).exists():
        raise PublicationRefused(f"{rating_list} is already published on {date}.")
    last = published.order_by("-date").values_list("date", flat=True).first()
    if last is not None and date < last:
        raise PublicationRefused(
            _("%(list)s was last published on %(last)s; a new publication must come after it.")
            % {"list": rating_list.name, "last": last.isoformat()}
        )


@transaction.atomic
def rating_list_publish(*, rating_list: RatingList, date: dt.date, by: Any = None) -> PublishedList:
    """Freeze the list as it stood at the end of `date`; UFGO assigns 4-7 dan here (B9).

    The grades the previous publications gave are handed on first (2.6 lowers one step
    per publication from there), and the tournaments after a past date are replayed at
    once, so the live list equals a from-scratch replay as soon as this commits."""
    _lock(rating_list.pk)
    publication_date_check(rating_list=rating_list, date=date)
    states = states_before(rating_list, date + dt.timedelta(days=1))
    hand_on_publications(rating_list, states, before=date)
    snapshot = PublishedList.objects.create(rating_list=rating_list, date=date, created_by=by)
    births = {
        member_id: effective_birth_date(birth_date, birth_year)
        for member_id, birth_date, birth_year in Member.objects.filter(
            pk__in=list(states)
        ).values_list("id", "birth_date", "birth_year")
    }
    ranked = sorted(
        (
            (m, s)
            for m, s in states.items()
            if s.rating is not None
            and (
                rating_list.system != "egf"
                or s.last_played is None
                or rules.egf_active_until(s.last_played, _grade_or_none(s.grade)) >= date
            )
        ),
        key=lambda item: (-(item[1].rating or 0.0), item[0]),
    )
    entries = []
    for rank, (member_id, state) in enumerate(ranked, start=1):
        grade = rules.grade_at_publication(
            rating_list.system,
            held=_grade_or_none(state.grade),
            rating=state.rating or 0.0,
            birth_date=births.get(member_id),
            publication_date=date,
        )
        entries.append(
            PublishedEntry(
                snapshot=snapshot,
                member_id=member_id,
                rank=rank,
                rating=state.rating,
                provisional=state.provisional,
                grade=grade,
                tournaments=state.tournaments,
                last_played=state.last_played,
            )
        )
    PublishedEntry.objects.bulk_create(entries, batch_size=5000)
    if rating_list.system == "ufgo":
        _carry_published_grades(rating_list, entries, date)
        _replay_after_publication(rating_list, date)
    return snapshot


def _replay_after_publication(rating_list: RatingList, date: dt.date) -> None:
    """Tournaments after a past publication date were rated without its grades: replay
    them now, in this transaction, so no page shows the list without them."""
    after = date + dt.timedelta(days=1)
    if not RatingHistory.objects.filter(rating_list=rating_list, date__gte=after).exists():
        return
    _store(rating_list, replay(rating_list, after), read_at=timezone.now())


def _carry_published_grades(
    rating_list: RatingList, entries: list[PublishedEntry], date: dt.date
) -> None:
    """UFGO grades given at publication hold from then on: the live entries of players
    with no tournament after the date take them now; replays hand them on (replay.py)."""
    for entry in entries:
        RatingEntry.objects.filter(
            rating_list=rating_list, member_id=entry.member_id, last_played__lte=date
        ).update(grade=entry.grade)


def _grade_or_none(rank: int | None) -> Grade | None:
    return None if rank is None else Grade.from_rank(rank)
