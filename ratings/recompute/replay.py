"""Replay a rating list's approved tournaments through the engine, in memory.

`replay` reads the database and writes nothing: the recompute stores what it
returns, the impact preview only compares it. Order: tournament end date, then id.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable
from contextlib import nullcontext
from itertools import repeat

from django.db import connection

from clubsite.models import Member
from ratings.models import RatingList
from ratings.recompute import rules
from ratings.recompute.baseline_starts import baseline_date, baseline_member_ids
from ratings.recompute.history_write import table_digest
from ratings.recompute.reads import (
    Entries,
    ReplayedTournament,
    fide_history,
    fide_ratings_on,
    load_games,
    player_ids,
    published_grades,
    read_meanwhile,
    read_members,
    read_professed,
    states_before,
    stored_table_digests,
    tables_with_rows,
    tournaments_from,
)
from ratings.recompute.state import (
    GRADES_BY_RANK,
    Card,
    HistoryRow,
    MemberState,
    ReplayOutcome,
    grade_of,
)
from ratings.systems.model import BadInput, Event, EventInput, EventOutput, Game, Player
from ratings.systems.registry import SYSTEMS
from tournaments.models import Tournament


def replay(
    rating_list: RatingList,
    from_date: dt.date,
    *,
    include: Tournament | None = None,
    exclude: Iterable[int] = (),
    to_store: bool = False,
) -> ReplayOutcome:
    """Rate every approved tournament of the list from `from_date` on, starting from the
    stored states just before it. `include` adds a not-yet-approved table (the preview).
    `to_store`: the outcome is for `outcome_store`, which needs no row of a table that
    comes out as stored (see `ReplayOutcome.unchanged`)."""
    tournaments = tournaments_from(rating_list, from_date, include=include, exclude=exclude)
    start_date = baseline_date(rating_list)
    restarted = (
        baseline_member_ids(rating_list) if restarts_baseline(start_date, from_date) else set()
    )
    if not tournaments:
        return ReplayOutcome(from_date=from_date, restarted=restarted)
    tournament_ids = [t.pk for t in tournaments]
    # Read whole before the first table is rated. Streaming them in as the tables are rated
    # (the server reading ahead on the other core) gained nothing at EGD scale: reading a
    # million games costs ~500 ms of Python (building the rows), wherever it happens.
    games_by_tournament = load_games(
        tournament_ids, handicaps=rating_list.system in rules.GO_SYSTEMS
    )
    professed = read_professed(tournament_ids)
    players = {t_id: player_ids(games) for t_id, games in games_by_tournament.items()}
    member_ids = sorted(map(int, set().union(*players.values())))  # ids as text: one int() each
    states = states_before(rating_list, from_date, member_ids)
    outcome = ReplayOutcome(from_date=from_date, states=states, restarted=restarted)
    # On PostgreSQL the store compares with what is stored (elsewhere it replaces it).
    store_compares = to_store and connection.vendor == "postgresql"
    if store_compares:
        outcome.stored_digests = stored_table_digests(rating_list.pk, from_date)
    named = frozenset(m for m, state in states.items() if state.from_baseline)
    members = read_members(member_ids)

    fide_dated = fide_history(member_ids) if rating_list.system == "orr" else {}
    publications = published_grades(rating_list)
    # The store will look for stored tables the replay left out (their rows go): the
    # server finds them while the tables are rated (about 110 ms at EGD scale).
    reading = (
        read_meanwhile(tables_with_rows(rating_list.pk, from_date))
        if store_compares
        else nullcontext(None)
    )
    with reading as stored_tables:
        for tournament in tournaments:
            _apply_publications(states, publications, before=tournament.end_date)
            rate_tournament(
                outcome,
                rating_list,
                tournament,
                games_by_tournament.get(tournament.pk, []),
                professed[tournament.pk],
                members,
                fide_history=fide_dated,
                kept=before_baseline(tournament, start_date, named),
                players=players.get(tournament.pk),
            )
    if stored_tables is not None:
        outcome.stored_tables = {t_id for (t_id,) in stored_tables}
    _apply_publications(states, publications, before=None)
    return outcome


def rate_tournament(
    outcome: ReplayOutcome,
    rating_list: RatingList,
    tournament: ReplayedTournament,
    games: list[Game],
    entries: Entries,
    members: dict[int, Card],
    *,
    fide_history: dict[int, list[tuple[dt.date, int]]],
    kept: frozenset[int] = frozenset(),
    players: set[str] | None = None,
    partial: bool = False,
) -> None:
    """Rate one tournament from `outcome.states` and move them on (except the players
    `kept` as they stand: at their baseline standing, or with their stored rows), or record
    in `outcome.not_rated` why the list does not rate it. `games` are as `load_games` gives
    them; `entries` are the table's participants as `read_professed` gives them; `players`,
    if known already, the ids of those who played (`player_ids(games)`). `partial`: some of
    its games only, those of the players not kept (a cone's, where a player's row hangs on
    his own games alone): its rows are not all there to digest (`outcome.undigested`)."""
    system_code = rating_list.system
    states = outcome.states
    verdict = rules.event_verdict(system_code, tournament)
    if not verdict.rated:
        outcome.not_rated[tournament.pk] = verdict.reason
        return
    if not games:
        outcome.not_rated[tournament.pk] = "no played games"
        return
    event_input, seats = _event_input(
        rating_list,
        tournament,
        games,
        states,
        entries,
        members,
        klass=verdict.klass or tournament.tournament_class,
        fide_ratings=fide_ratings_on(fide_history, tournament.start_date),
        players=player_ids(games) if players is None else players,
    )
    started = time.perf_counter()
    try:
        output = SYSTEMS[system_code].rate(event_input)
    except BadInput as error:
        raise _in_context(error, tournament, event_input) from error
    outcome.engine_seconds += time.perf_counter() - started
    first_row = len(outcome.rows)
    _apply(
        outcome,
        rating_list,
        tournament,
        event_input,
        seats,
        output,
        verdict,
        kept=kept,
    )
    if partial:
        outcome.undigested.add(tournament.pk)
    elif len(outcome.rows) > first_row:
        # Digested now, while its rows and the engine's answer are still in the cache.
        digest = table_digest(outcome.rows[first_row:])
        stored = outcome.stored_digests
        if stored is not None and stored.get(tournament.pk) == digest:
            # As stored: its rows are let go now, while they are still in the cache, not
            # held (with the engine's games they keep) to the end of a full recompute.
            del outcome.rows[first_row:]
            outcome.unchanged.add(tournament.pk)
        else:
            outcome.table_digests[tournament.pk] = digest
    outcome.tournaments += 1
    outcome.games += len(games)
    outcome.rated_ids.append(tournament.pk)
    if verdict.klass is not None:
        outcome.applied_classes[tournament.pk] = verdict.klass


def restarts_baseline(start_date: dt.date | None, from_date: dt.date) -> bool:
    return start_date is not None and from_date <= start_date


def before_baseline(
    tournament: ReplayedTournament, start_date: dt.date | None, named: frozenset[int]
) -> frozenset[int]:
    """The players the tournament leaves as they are: on or before the baseline's date,
    those it names (their row already counts it). They play at their baseline standing."""
    if start_date is None or tournament.end_date > start_date:
        return frozenset()
    return named


def hand_on_publications(
    rating_list: RatingList, states: dict[int, MemberState], *, before: dt.date
) -> None:
    """Give `states` (read from the stored history) the grades of the list's publications
    dated before `before`, as a replay does between tournaments (ufgo.md B9: each
    publication starts from what the previous one left)."""
    _apply_publications(states, published_grades(rating_list), before=before)


def _apply_publications(
    states: dict[int, MemberState],
    publications: list[tuple[dt.date, dict[int, int]]],
    *,
    before: dt.date | None,
) -> None:
    """Hand on the grades of every publication dated before `before` (all if None) to the
    players it found between tournaments: those whose last tournament is not after it."""
    while publications and (before is None or publications[0][0] < before):
        date, grades = publications.pop(0)
        for member_id, rank in grades.items():
            state = states.get(member_id)
            if state is not None and (state.last_played is None or state.last_played <= date):
                state.grade = rank


def _in_context(error: BadInput, tournament: ReplayedTournament, event: EventInput) -> BadInput:
    """The engine names fields of its input; say which tournament and which member."""
    where = f"{tournament.name} (tournament #{tournament.pk})"
    head = error.field.split(".")[0]
    if head.startswith("players[") and head.endswith("]"):
        index = int(head[len("players[") : -1])
        if 0 <= index < len(event.players):
            member_id = int(event.players[index].id)
            member = Member.objects.filter(pk=member_id).first()
            where += f", {member.full_name if member else 'member'} (member #{member_id})"
    return BadInput(error.field, f"{where}: {error.message}")


def _event_input(
    rating_list: RatingList,
    tournament: ReplayedTournament,
    games: list[Game],
    states: dict[int, MemberState],
    entries: Entries,
    members: dict[int, Card],
    *,
    klass: str,
    fide_ratings: dict[int, int],
    players: set[str],
) -> tuple[EventInput, list[Seat]]:
    """The engine's input for one table, and each of its players' `Seat`, in the same
    order (the engine answers in its input's order)."""
    system_code = rating_list.system
    # A player's grade as the engine takes it (a `Grade`; None outside Go), and his best
    # grade (EGF resets only): the same lookups `state.grade_of` makes, hoisted.
    grade_by_rank = GRADES_BY_RANK if system_code in rules.GO_SYSTEMS else {}
    best_by_rank = GRADES_BY_RANK if system_code == "egf" else {}
    engine_players = []  # each `Player`'s fields, made `Player`s at once below
    seats = []
    # In the order of their member ids: one int() per player, his id as text kept (the
    # same object as in the games, which the engine's lookups find at once).
    for member_id, player_id in sorted(zip(map(int, players), players, strict=True)):
        state = states.get(member_id)
        grade_rank, declared = entries.get(member_id, _NOT_ENTERED)
        if state is None:
            card = members[member_id]
            rating = history = best = None
        else:
            card = state.card or members[member_id]
            rating, history, best = state.rating, state.history, best_by_rank.get(state.best_grade)
        if grade_rank is None:  # the table gives none: the system's own rule
            grade_rank = rules.grade_not_given(
                system_code,
                last_professed=state.grade if state is not None else None,
                brings_rating=rating is not None,
                member_grade=card[_MEMBER_GRADE],
            )
        if rating is None and history is None:
            # A newcomer may bring a starting value where the system's spec lets the
            # application give one: the rating his results file declares (UFGO D2, ORR
            # D22), or for ORR the FIDE rating valid when the tournament started.
            rating = rules.newcomer_start(
                system_code, declared=declared, fide=fide_ratings.get(member_id)
            )
        birth = card[_BIRTH]
        engine_players.append(
            (player_id, rating, grade_by_rank.get(grade_rank), best, birth, history)
        )
        seats.append((member_id, state, grade_rank, card))
    event_input = EventInput(
        system=system_code,
        params=rating_list.params or {},
        event=Event(
            id=str(tournament.pk),
            date=tournament.end_date,
            klass=klass,  # type: ignore[arg-type]
            board=tournament.board_size,  # type: ignore[arg-type]
            official=tournament.official,
            participants=max(len(entries), len(seats), tournament.participants_declared or 0),
        ),
        # Without `Player`'s Python-level `__new__`, in one C loop (400,000 at EGD scale).
        players=tuple(map(tuple.__new__, repeat(Player), engine_players)),
        games=tuple(games),
    )
    return event_input, seats


_NOT_ENTERED = (None, None)  # no grade professed, no rating declared
_BIRTH, _MEMBER_GRADE = 0, 2  # of a `Card`

# A player of a table as `_event_input` found him, for `_apply`: his member id, his state
# before the table (None: a newcomer), the grade rank he plays at there and his member
# card. Each is a lookup in a dict of every member; made once per player, not twice.
Seat = tuple[int, MemberState | None, int | None, Card]


def _apply(
    outcome: ReplayOutcome,
    rating_list: RatingList,
    tournament: ReplayedTournament,
    event_input: EventInput,
    seats: list[Seat],
    output: EventOutput,
    verdict: rules.EventVerdict,
    *,
    kept: frozenset[int] = frozenset(),
) -> None:
    """Turn the engine's answer into history rows and move every player's state on
    (except those `kept` where the baseline has them).

    It runs once per player of every tournament (400,000 times in a full EGD-scale
    replay): what depends only on the list or the tournament is worked out before the loop."""
    states, rows, touched = outcome.states, outcome.rows, outcome.touched
    system = rating_list.system
    # The opponent's columns of each breakdown game: his id as a number (his seat's: the
    # engine answers in its input's order), his start.
    opponents = {p.id: (seat[0], p.before) for p, seat in zip(output.players, seats, strict=True)}
    time_control_applies = verdict.keep_rating_above is not None  # UFGO 1.7
    t_id, day = tournament.pk, tournament.end_date
    floating_grades = rules.has_floating_grades(system)
    anomaly_note = rules.anomaly_note(system)
    klass = verdict.klass or ""
    zero_debuts_dropped = system in rules.ZERO_DEBUT_SYSTEMS
    for result, player_in, (member_id, state, grade_rank, card) in zip(
        output.players, event_input.players, seats, strict=True
    ):
        _id, before, after, change, rated, provisional, anomalous, history, games = result
        if member_id in kept:
            continue
        if state is None:  # a newcomer
            state = states[member_id] = MemberState(card=card)
        elif state.card is None:
            state.card = card
        rating_in = state.rating
        if zero_debuts_dropped and rules.debut_not_kept(
            system, rating_in=rating_in, history=state.history, result=result
        ):
            continue  # orr.md D15: a zero-score debut is neither stored nor counted
        note = ""
        if time_control_applies and rules.kept_by_time_control(
            verdict,
            rules.start_rating(system, rating_in, player_in.rating, player_in.grade),
        ):
            # UFGO 1.7: too short for his IK (a newcomer's: his start); his IK stays, his
            # games still count for his opponents. Not rated, so no anomaly of his is shown
            # either: the engine's recalculation of him is not his result here.
            before, after, rated, anomalous = rating_in, rating_in, False, False
            change = 0.0 if rating_in is not None else None
            note = rules.KEPT_BY_TIME_CONTROL
        elif anomalous:
            note = anomaly_note
        rating_now = after if rated else rating_in
        if floating_grades:
            list_grade = rules.grade_after(
                system,
                professed=grade_of(grade_rank),
                held=grade_of(state.grade),
                rating=rating_now,
                birth_date=card[0],
                event_date=day,
            )
            list_rank = list_grade.rank if list_grade is not None else None
        else:  # the list shows what he professed last
            list_rank = grade_rank if grade_rank is not None else state.grade
        state.rating = rating_now
        state.provisional = provisional
        state.history = history
        if grade_rank is not None and (state.best_grade is None or grade_rank > state.best_grade):
            state.best_grade = grade_rank
        state.grade = list_rank
        state.tournaments += 1
        state.games += len(games)
        state.last_played = day
        rows.append(
            tuple.__new__(
                HistoryRow,
                (
                    member_id,
                    t_id,
                    day,
                    t_id,  # sequence: tables of one day are rated in id order
                    rating_in,
                    before,
                    after,
                    change,
                    len(games),  # games_count
                    rated,
                    provisional,
                    anomalous,
                    rules.is_reset(system, rating_in, before),
                    grade_rank,  # grade
                    list_rank,  # list_grade
                    klass,
                    note,
                    state.tournaments,  # tournaments_so_far
                    state.games,  # games_so_far
                    state.best_grade,  # best_grade_so_far
                    history,
                    games,  # breakdown
                    opponents,
                ),
            )
        )
        touched.add(member_id)


def final_ratings(outcome: ReplayOutcome) -> dict[int, float | None]:
    return {member_id: outcome.states[member_id].rating for member_id in outcome.touched}
