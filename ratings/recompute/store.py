"""A replay's outcome written: the history from its date on (on PostgreSQL only the rows
that changed), the live entries of the members it touched, the EGF class applied per table."""

from __future__ import annotations

import datetime as dt
import json
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import F, Q

from ratings.models import ListTournament, RatingEntry, RatingList, rated_since_decided
from ratings.recompute import rules
from ratings.recompute.bulk import RowUpdates, as_json, insert_rows
from ratings.recompute.history_write import history_write
from ratings.recompute.reads import (
    FEW_IDS,
    any_of,
    fast_rows,
    id_array,
    states_before,
    with_ids,
)
from ratings.recompute.state import MemberState, ReplayOutcome
from ratings.systems.grades import Grade

ENTRY_COLUMNS = [
    "rating_list_id", "member_id", "rating", "rated", "provisional", "grade", "best_grade",
    "tournaments", "games", "last_played", "active_until", "history",
]  # fmt: skip
_ENTRY_KEY = ("rating_list_id", "member_id")


class Written(NamedTuple):
    """How many rows a store wrote (PostgreSQL writes only the rows that changed)."""

    rows: int  # history rows and live entries
    entries: int  # of them, live entries
    history_swapped: bool = False  # written into a fresh table (`history_swap`)


def outcome_store(
    rating_list: RatingList, outcome: ReplayOutcome, *, read_at: dt.datetime
) -> Written:
    """Replace the history from the replay's date on and refresh the live entries. The
    outcome's rows may be let go once written (`outcome.rows` emptied)."""
    scope = outcome.scope  # None: every row from the date; else a cone replay's tournaments
    affected, written, swapped = history_write(
        rating_list.pk,
        outcome.rows,
        from_date=outcome.from_date,
        tournament_ids=scope,
        stored_keys=outcome.stored_keys,
        standing=outcome.standing,
        known_digests=outcome.table_digests,
        unchanged=outcome.unchanged,
        stored_tables=outcome.stored_tables,
        undigested=outcome.undigested,
    )
    written += outcome.written_early
    affected |= outcome.touched | outcome.restarted
    # Players who lost tournaments from the date on but play none in the replay (a table
    # taken out) fall back to where their stored history, without it, leaves them.
    missing = sorted(affected - set(outcome.states))
    outcome.states.update(states_before(rating_list, dt.date.max, missing))
    entries_written = _refresh_entries(rating_list, outcome, affected)
    if entries_written:
        entries_changed([rating_list.pk])
    written += entries_written
    links = ListTournament.objects.filter(
        rating_list=rating_list, tournament__end_date__gte=outcome.from_date
    )
    if scope is not None:
        links = links.filter(any_of("tournament_id", scope))
    _store_rated(links, outcome, read_at=read_at)
    for tournament_id, reason in outcome.not_rated.items():
        links.filter(tournament_id=tournament_id).update(
            rated_at=None, not_rated_reason=reason, applied_class=""
        )
    links.exclude(any_of("tournament_id", outcome.rated_ids)).exclude(
        any_of("tournament_id", outcome.not_rated)
    ).update(rated_at=None, applied_class="")
    return Written(rows=written, entries=entries_written, history_swapped=swapped)


def entries_changed(rating_list_ids: list[int]) -> None:
    """Say that these lists' live entries changed (in the caller's transaction): what pages
    keep of them is kept under `entries_version` (`selectors.list_version_key`)."""
    RatingList.objects.filter(pk__in=rating_list_ids).update(
        entries_version=F("entries_version") + 1
    )


def _store_rated(links: Any, outcome: ReplayOutcome, *, read_at: dt.datetime) -> None:
    """Mark the tables the replay rated, each with the class it was rated at (egf.md §8:
    after the time-control cap; empty where the list keeps the entered class): one
    statement per class. A table already marked so, by a run after its last decision,
    keeps its mark and its time (a full recompute of an unchanged list writes none of its
    9,000 links; the cone reads `rated_at` only against the decisions)."""
    by_class: dict[str, list[int]] = {}
    for tournament_id in outcome.rated_ids:
        klass = outcome.applied_classes.get(tournament_id, "")
        by_class.setdefault(klass, []).append(tournament_id)
    for klass, ids in by_class.items():
        links.filter(any_of("tournament_id", ids)).exclude(
            Q(not_rated_reason="", applied_class=klass) & rated_since_decided()
        ).update(rated_at=read_at, not_rated_reason="", applied_class=klass)


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
        # Compared here first: a full recompute of an unchanged list would otherwise send
        # all 45,000 entries to the database to find that none changed. What differs is
        # then written as it is known to differ: updated in place (in batches, through
        # psycopg's pipeline), added by COPY, taken out by key. (Merged through a
        # temporary table in ten statements, a retroactive insert's 700 took 16-20 ms to
        # refresh; 11-14 so.)
        new = {row[1]: row for row in entry_rows}
        stored = _stored_entries(rating_list, affected_ids)
        differ = [row for member_id, row in new.items() if not _same(row, stored.get(member_id))]
        gone = [member_id for member_id in stored if member_id not in new]
        changed = [row for row in differ if row[1] in stored]
        added = [row for row in differ if row[1] not in stored]
        if changed:
            with RowUpdates(RatingEntry, ENTRY_COLUMNS, _ENTRY_KEY) as updates:
                for row in changed:
                    updates.add(row)
                updates.flush()
                # The history is written: its rows go (a retroactive insert's 10,000 took
                # 12-40 ms to free) while the server writes the entries, not after.
                outcome.rows.clear()
        written = len(changed) + (insert_rows(RatingEntry, ENTRY_COLUMNS, added) if added else 0)
        if gone:
            with connection.cursor() as cursor:
                cursor.execute(
                    "DELETE FROM ratings_ratingentry "
                    "WHERE rating_list_id = %s AND member_id = ANY(%s::bigint[])",
                    [rating_list.pk, id_array(gone)],
                )
                written += cursor.rowcount
        return written
    written = 0
    for start in range(0, len(affected_ids), 20000):
        written += RatingEntry.objects.filter(
            rating_list=rating_list, member_id__in=affected_ids[start : start + 20000]
        ).delete()[0]
    return written + insert_rows(RatingEntry, ENTRY_COLUMNS, entry_rows)


def _stored_entries(rating_list: RatingList, member_ids: list[int]) -> dict[int, tuple[Any, ...]]:
    """The members' stored entries in the list, as `_entry_row` gives them (JSON as text).

    For most of the list (a full recompute) its entries are read whole, the others left
    out here: matching 45,000 ids in the query took three times as long as the reading.
    A few thousand (a cone's) are read by id without counting the list first (the count
    took 6 ms at EGD scale)."""
    entries = RatingEntry.objects.filter(rating_list=rating_list)
    if len(member_ids) > FEW_IDS and len(member_ids) * 2 >= entries.count():
        wanted = set(member_ids)
        rows = fast_rows(entries.values_list(*ENTRY_COLUMNS))
        return {row[1]: row for row in rows if row[1] in wanted}
    stored: dict[int, tuple[Any, ...]] = {}
    for queryset in with_ids(entries, "member_id", member_ids):
        for row in fast_rows(queryset.values_list(*ENTRY_COLUMNS)):
            stored[row[1]] = row
    return stored


def _same(new: tuple[Any, ...], stored: tuple[Any, ...] | None) -> bool:
    """Whether a stored entry already holds `new`'s values (JSON compared as values: the
    database keeps its own spelling of it)."""
    if stored is None or new[:-1] != stored[:-1]:
        return False
    return _json(new[-1]) == _json(stored[-1])


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _entry_row(rating_list: RatingList, member_id: int, state: MemberState) -> tuple[Any, ...]:
    active_until = None
    if rating_list.system == "egf" and state.last_played is not None:
        active_until = _egf_active_until(state.last_played, state.grade)
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


@lru_cache(maxsize=100_000)
def _egf_active_until(last_played: dt.date, grade_rank: int | None) -> dt.date:
    """`rules.egf_active_until` by grade rank, remembered: the 45,000 entries of a full
    recompute share a few thousand (day, grade) pairs."""
    grade = Grade.from_rank(grade_rank) if grade_rank is not None else None
    return rules.egf_active_until(last_played, grade)
