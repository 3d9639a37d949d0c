"""A recompute that replays only what a change can reach: its cone (issue 18).

A table approved (or taken out) on day D changes the ratings of its players; each of them
changes the next tournament's other players, and so on. Walking the list's tournaments
from D in replay order, a tournament belongs to the cone when it changed itself or has a
player already in the cone; its players then join. Every other tournament keeps its
stored rows: none of its players' states before it moved. A player who joins the cone
late starts from his stored state just before his first tournament in it.

What changed is read from the data, not remembered: an approved tournament of the list
the last run did not rate (`rated_at` empty: new, re-approved after a reopening, or not
rated at all; or approved after that run read the data) and a tournament with stored rows that is no longer approved in the list.
A recompute forced from a date (rules or parameters changed) replays everything instead.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ratings.models import ListTournament, RatingHistory, RatingList, counted_links
from ratings.recompute.baseline_starts import baseline_date
from ratings.recompute.reads import (
    fide_history,
    id_chunks,
    last_sequence_before,
    load_games,
    player_ids,
    published_grades,
    read_members,
    read_professed,
    states_before,
)
from ratings.recompute.replay import rate_tournament, restarts_baseline
from ratings.recompute.rules import GO_SYSTEMS
from ratings.recompute.state import MemberState, ReplayOutcome, rank_of
from tournaments.models import Tournament


def cone_replay(rating_list: RatingList, from_date: dt.date) -> ReplayOutcome | None:
    """The replay of the tournaments from `from_date` that a change can reach, or None
    when this list's cone cannot be drawn (the caller then replays everything)."""
    if published_grades(rating_list):
        return None  # published grades reach players between tournaments: not modelled here
    if restarts_baseline(baseline_date(rating_list), from_date):
        # A baseline on or after the date (new, replaced, or its tables changed) moves the
        # start of every member it names, and its own tables leave them as they are: the
        # full replay restarts them (replay.before_baseline); no cone of tables covers it.
        return None
    rows = ListTournament.objects.filter(
        rating_list=rating_list, tournament__end_date__gte=from_date
    ).values_list("tournament_id", "rated_at", "tournament__decided_at", "decided_at")
    # A table decided (as a whole, or for this list) after the run that rated it read the
    # data is rated no more.
    links = [
        (t, None if _decided_after(rated_at, table_decided, list_decided) else rated_at)
        for t, rated_at, table_decided, list_decided in rows
    ]
    approved = set(
        ListTournament.objects.filter(
            counted_links(), rating_list=rating_list, tournament__end_date__gte=from_date
        ).values_list("tournament_id", flat=True)
    )  # counts in this list: approved for it (ratings.submissions.list_approval)
    stored = set(
        RatingHistory.objects.filter(rating_list=rating_list, date__gte=from_date)
        .order_by()
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    changed = {t for t, rated_at in links if t in approved and rated_at is None}
    removed = stored - approved
    tournaments = list(Tournament.objects.filter(pk__in=approved).order_by("end_date", "pk"))
    professed = read_professed([t.pk for t in tournaments])
    players = {t_id: set(entries) for t_id, entries in professed.items()}

    # Whoever had a row in a changed or removed table: his later states may move.
    cone: set[int] = set()
    for chunk in id_chunks(sorted((changed & stored) | removed), 2000):
        cone.update(
            RatingHistory.objects.filter(
                rating_list=rating_list, tournament_id__in=chunk
            ).values_list("member_id", flat=True)
        )
    replayed: list[Tournament] = []
    joined_at: dict[int, tuple[dt.date, int]] = {}  # member -> first tournament in the cone
    for tournament in tournaments:
        entrants = players[tournament.pk]
        if tournament.pk in changed or not entrants.isdisjoint(cone):
            replayed.append(tournament)
            for member_id in entrants:
                joined_at.setdefault(member_id, (tournament.end_date, tournament.pk))
            cone |= entrants
    replayed_ids = [t.pk for t in replayed]
    games = load_games(replayed_ids, handicaps=rating_list.system in GO_SYSTEMS)
    for t_id, rows in games.items():
        if not {int(m) for m in player_ids(rows)} <= players[t_id]:
            return None  # a game of someone not entered in the table: no cone to trust

    outcome = ReplayOutcome(from_date=from_date, scope=sorted({*replayed_ids, *removed}))
    member_ids = sorted(joined_at)
    kept = stored - set(outcome.scope or ())
    outcome.states = _states_on_joining(rating_list, from_date, joined_at, kept)
    members = read_members(member_ids)
    fide_dated = fide_history(member_ids) if rating_list.system == "orr" else {}
    sequence = last_sequence_before(rating_list, from_date)
    in_cone = set(replayed_ids)
    for tournament in tournaments:
        if tournament.pk not in in_cone:
            if tournament.pk in stored:  # rated last time, and nothing it depends on moved
                sequence += 1
                outcome.sequences[tournament.pk] = sequence
            continue
        if rate_tournament(
            outcome,
            rating_list,
            tournament,
            games.get(tournament.pk, []),
            sequence + 1,
            professed[tournament.pk],
            members,
            fide_history=fide_dated,
        ):
            sequence += 1
    return outcome


def _states_on_joining(
    rating_list: RatingList,
    from_date: dt.date,
    joined_at: dict[int, tuple[dt.date, int]],
    kept: set[int],
) -> dict[int, MemberState]:
    """Each cone player's state just before his first tournament in the cone: his stored
    state before `from_date`, moved on by his stored rows of tournaments outside the cone
    (`kept`) before that one, the way `states_before` reads a state from rows."""
    member_ids = sorted(joined_at)
    states = states_before(rating_list, from_date, member_ids)
    rows: list[tuple[Any, ...]] = []
    fields = (
        "member_id", "date", "tournament_id", "sequence", "after", "rated", "provisional",
        "history", "list_grade", "games_count", "grade",
    )  # fmt: skip
    # The kept tables' rows (a few thousand a year back), then those of cone players: one
    # query, not one per 5,000 players.
    for chunk in id_chunks(sorted(kept), 5000):
        rows += (
            row
            for row in RatingHistory.objects.filter(
                rating_list=rating_list, date__gte=from_date, tournament_id__in=chunk
            ).values_list(*fields)
            if row[0] in joined_at
        )
    rows.sort(key=lambda r: (r[1], r[2]))  # replay order: date, then tournament id
    for (
        member_id,
        day,
        t_id,
        sequence,
        after,
        _rated,
        provisional,
        history,
        list_grade,
        n,
        grade,
    ) in rows:
        if (day, t_id) >= joined_at[member_id]:
            continue
        state = states.setdefault(member_id, MemberState())
        state.tournaments += 1
        state.games += n or 0
        rank = rank_of(grade)
        if rank is not None and (state.best_grade is None or rank > state.best_grade):
            state.best_grade = rank
        state.last_played = day
        state.last_sequence = sequence
        # A row not rated may still carry his rating on (a UFGO player kept by 1.7), as
        # `replay._states` reads it.
        state.rating = after
        state.provisional = provisional
        state.history = history
        state.grade = rank_of(list_grade)
    return states


def _decided_after(rated_at: dt.datetime | None, *decided: dt.datetime | None) -> bool:
    """Whether any decision came after the run that rated the table read the data."""
    if rated_at is None:
        return True
    return any(day is not None and day > rated_at for day in decided)
