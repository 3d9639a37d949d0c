"""Replay a rating list's approved tournaments through the engine, in memory.

`replay` reads the database and writes nothing: the recompute stores what it
returns, the impact preview only compares it. Order: tournament end date, then id.
"""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Iterable

from clubsite.models import Member
from ratings.models import RatingList
from ratings.recompute import rules
from ratings.recompute.baseline_starts import baseline_date, baseline_member_ids
from ratings.recompute.reads import (
    fide_history,
    fide_ratings_on,
    last_sequence_before,
    load_games,
    published_grades,
    read_members,
    read_professed,
    states_before,
    tournaments_from,
)
from ratings.recompute.state import HistoryRow, MemberState, ReplayOutcome, grade_of
from ratings.systems.model import BadInput, Event, EventInput, EventOutput, Game, Player
from ratings.systems.registry import SYSTEMS
from tournaments.models import Tournament


def replay(
    rating_list: RatingList,
    from_date: dt.date,
    *,
    include: Tournament | None = None,
    exclude: Iterable[int] = (),
) -> ReplayOutcome:
    """Rate every approved tournament of the list from `from_date` on, starting from the
    stored states just before it. `include` adds a not-yet-approved table (the preview)."""
    tournaments = tournaments_from(rating_list, from_date, include=include, exclude=exclude)
    start_date = baseline_date(rating_list)
    restarted = (
        baseline_member_ids(rating_list) if restarts_baseline(start_date, from_date) else set()
    )
    if not tournaments:
        return ReplayOutcome(from_date=from_date, restarted=restarted)
    sequence = last_sequence_before(rating_list, from_date)
    tournament_ids = [t.pk for t in tournaments]
    games_by_tournament = load_games(tournament_ids)
    professed = read_professed(tournament_ids)
    participant_counts: dict[int, int] = defaultdict(int)
    for t_id, _m_id in professed:
        participant_counts[t_id] += 1
    member_ids = sorted(
        {m for games in games_by_tournament.values() for g in games for m in g[1:3]}
    )
    states = states_before(rating_list, from_date, member_ids)
    outcome = ReplayOutcome(from_date=from_date, states=states, restarted=restarted)
    named = frozenset(m for m, state in states.items() if state.from_baseline)
    members = read_members(member_ids)

    fide_dated = fide_history(member_ids) if rating_list.system == "orr" else {}
    publications = published_grades(rating_list)
    for tournament in tournaments:
        _apply_publications(states, publications, before=tournament.end_date)
        if rate_tournament(
            outcome,
            rating_list,
            tournament,
            games_by_tournament.get(tournament.pk, []),
            sequence + 1,
            professed,
            members,
            participant_counts[tournament.pk],
            fide_history=fide_dated,
            kept=before_baseline(tournament, start_date, named),
        ):
            sequence += 1
    _apply_publications(states, publications, before=None)
    return outcome


def rate_tournament(
    outcome: ReplayOutcome,
    rating_list: RatingList,
    tournament: Tournament,
    games: list[tuple[int, int, int, str, int]],
    sequence: int,
    professed: dict[tuple[int, int], tuple[int | None, int | None]],
    members: dict[int, tuple[dt.date | None, int | None, int | None]],
    participants: int,
    *,
    fide_history: dict[int, list[tuple[dt.date, int]]],
    kept: frozenset[int] = frozenset(),
) -> bool:
    """Rate one tournament at replay position `sequence` from `outcome.states` and move
    them on (except the players `kept` at their baseline standing); False (and the reason in `outcome.not_rated`) when the list does not rate it."""
    system_code = rating_list.system
    states = outcome.states
    verdict = rules.event_verdict(system_code, tournament)
    if not verdict.rated:
        outcome.not_rated[tournament.pk] = verdict.reason
        return False
    if not games:
        outcome.not_rated[tournament.pk] = "no played games"
        return False
    event_input = _event_input(
        rating_list,
        tournament,
        games,
        states,
        professed,
        members,
        participants,
        klass=verdict.klass or tournament.tournament_class,
        fide_ratings=fide_ratings_on(fide_history, tournament.start_date),
    )
    started = time.perf_counter()
    try:
        output = SYSTEMS[system_code].rate(event_input)
    except BadInput as error:
        raise _in_context(error, tournament, event_input) from error
    outcome.engine_seconds += time.perf_counter() - started
    _apply(
        outcome,
        rating_list,
        tournament,
        sequence,
        event_input,
        output,
        verdict,
        professed,
        members,
        kept=kept,
    )
    outcome.tournaments += 1
    outcome.games += len(games)
    outcome.rated_ids.append(tournament.pk)
    if verdict.klass is not None:
        outcome.applied_classes[tournament.pk] = verdict.klass
    return True


def _grade_when_not_given(
    system: str, professed: int | None, state: MemberState | None, member_grade: int | None
) -> int | None:
    """The grade of a player whose results file gives none: for EGF the last grade he
    professed in the list (egf.md §8: inactivity and resets go by it), elsewhere, and for
    a newcomer, his member record's grade."""
    if professed is not None:
        return professed
    if system == "egf" and state is not None and state.grade is not None:
        return state.grade
    return member_grade


def restarts_baseline(start_date: dt.date | None, from_date: dt.date) -> bool:
    return start_date is not None and from_date <= start_date


def before_baseline(
    tournament: Tournament, start_date: dt.date | None, named: frozenset[int]
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


def _in_context(error: BadInput, tournament: Tournament, event: EventInput) -> BadInput:
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
    tournament: Tournament,
    games: list[tuple[int, int, int, str, int]],
    states: dict[int, MemberState],
    professed: dict[tuple[int, int], tuple[int | None, int | None]],
    members: dict[int, tuple[dt.date | None, int | None, int | None]],
    participants: int,
    *,
    klass: str,
    fide_ratings: dict[int, int],
) -> EventInput:
    system_code = rating_list.system
    go = system_code in rules.GO_SYSTEMS
    player_ids = sorted({m for g in games for m in g[1:3]})
    ids = {m: str(m) for m in player_ids}
    t_id = tournament.pk
    players = []
    for member_id in player_ids:
        state = states.get(member_id)
        birth, fide, member_grade = members[member_id]
        grade_rank, declared = professed.get((t_id, member_id), (None, None))
        grade_rank = _grade_when_not_given(system_code, grade_rank, state, member_grade)
        rating = state.rating if state is not None else None
        if rating is None and (state is None or state.history is None):
            # A newcomer may bring a starting value where the system's spec lets the
            # application give one: the rating his results file declares (UFGO D2, ORR
            # D22), or for ORR the FIDE rating valid when the tournament started.
            rating = rules.newcomer_start(
                system_code, declared=declared, fide=fide_ratings.get(member_id)
            )
        players.append(
            Player(
                id=ids[member_id],
                rating=rating,
                grade=grade_of(grade_rank) if go else None,
                best_grade=grade_of(state.best_grade)
                if state is not None and system_code == "egf"
                else None,
                birth_date=birth,
                history=state.history if state is not None else None,
            )
        )
    # Game(round, white, black, result, handicap), positionally: a million of them.
    engine_games = tuple(
        Game(r, ids[w], ids[b], result, handicap if go else 0)  # type: ignore[arg-type]
        for r, w, b, result, handicap in games
    )
    return EventInput(
        system=system_code,
        params=rating_list.params or {},
        event=Event(
            id=str(tournament.pk),
            date=tournament.end_date,
            klass=klass,  # type: ignore[arg-type]
            board=tournament.board_size,  # type: ignore[arg-type]
            official=tournament.official,
            participants=max(participants, len(player_ids), tournament.participants_declared or 0),
        ),
        players=tuple(players),
        games=engine_games,
    )


def _apply(
    outcome: ReplayOutcome,
    rating_list: RatingList,
    tournament: Tournament,
    sequence: int,
    event_input: EventInput,
    output: EventOutput,
    verdict: rules.EventVerdict,
    professed: dict[tuple[int, int], tuple[int | None, int | None]],
    members: dict[int, tuple[dt.date | None, int | None, int | None]],
    *,
    kept: frozenset[int] = frozenset(),
) -> None:
    """Turn the engine's answer into history rows and move every player's state on
    (except those `kept` where the baseline has them)."""
    states = outcome.states
    # The opponent's columns of each breakdown game: his id as a number, his start.
    opponents = {p.id: (int(p.id), p.before) for p in output.players}
    t_id, day = tournament.pk, tournament.end_date
    floating_grades = rules.has_floating_grades(rating_list.system)
    system = rating_list.system
    starts = {p.id: p.rating for p in event_input.players}
    grades = {p.id: p.grade for p in event_input.players}
    for result in output.players:
        member_id = int(result.id)
        if member_id in kept:
            continue
        state = states.get(member_id)
        if state is None:  # not `setdefault`: that builds a state for every player
            state = states[member_id] = MemberState()
        rating_in = state.rating
        if rules.debut_not_kept(system, rating_in=rating_in, history=state.history, result=result):
            continue  # orr.md D15: a zero-score debut is neither stored nor counted
        before, after, change = result.before, result.after, result.change
        rated, note = result.rated, ""
        start = rules.start_rating(system, rating_in, starts[result.id], grades[result.id])
        if rules.kept_by_time_control(verdict, start):
            # UFGO 1.7: too short for his IK (a newcomer's: his start); his IK stays, his
            # games still count for his opponents.
            before, after, rated = rating_in, rating_in, False
            change = 0.0 if rating_in is not None else None
            note = rules.KEPT_BY_TIME_CONTROL
        elif result.anomalous:
            note = rules.anomaly_note(system)
        grade_rank, _declared = professed.get((t_id, member_id), (None, None))
        birth, _fide, member_grade = members[member_id]
        grade_rank = _grade_when_not_given(system, grade_rank, state, member_grade)
        rating_now = after if rated else rating_in
        if floating_grades:
            list_grade = rules.grade_after(
                rating_list.system,
                professed=grade_of(grade_rank),
                held=grade_of(state.grade),
                rating=rating_now,
                birth_date=birth,
                event_date=tournament.end_date,
            )
            list_rank = list_grade.rank if list_grade is not None else None
        else:  # the list shows what he professed last (the hot path of big recomputes)
            list_rank = grade_rank if grade_rank is not None else state.grade
        row = HistoryRow(
            member_id=member_id,
            tournament_id=t_id,
            date=day,
            sequence=sequence,
            rating_in=rating_in,
            before=before,
            after=after,
            change=change,
            games_count=len(result.games),
            rated=rated,
            provisional=result.provisional,
            anomalous=result.anomalous,
            reset=rules.is_reset(system, rating_in, before),
            grade=grade_rank,
            list_grade=list_rank,
            klass=verdict.klass or "",
            note=note,
            history=result.history,
            breakdown=tuple(
                (g.round, *opponents[g.opponent], g.score, g.expected, g.change)
                for g in result.games
            ),
        )
        outcome.rows.append(row)
        outcome.touched.add(member_id)
        state.rating = rating_now
        state.provisional = result.provisional
        state.history = result.history
        if grade_rank is not None and (state.best_grade is None or grade_rank > state.best_grade):
            state.best_grade = grade_rank
        state.grade = row.list_grade
        state.tournaments += 1
        state.games += len(result.games)
        state.last_played = day
        state.last_sequence = sequence


def final_ratings(outcome: ReplayOutcome) -> dict[int, float | None]:
    return {member_id: outcome.states[member_id].rating for member_id in outcome.touched}
