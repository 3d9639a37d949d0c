"""Replay a rating list's approved tournaments through the engine, in memory.

`replay` reads the database and writes nothing: the recompute stores what it
returns, the impact preview only compares it. Order: tournament end date, then id.
"""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Count, Max, Sum

from clubsite.members import effective_birth_date
from clubsite.models import FideRating, Member
from ratings import rules
from ratings.baseline import BaselineStart, baseline_date, baseline_member_ids, baseline_starts
from ratings.list_approval import counted_links
from ratings.models import ListTournament, PublishedEntry, RatingHistory, RatingList
from ratings.systems.grades import ALL_GRADES, Grade
from ratings.systems.model import BadInput, Event, EventInput, EventOutput, Game, Player
from ratings.systems.registry import SYSTEMS
from tournaments.models import Game as GameRow
from tournaments.models import Participant, Tournament

# Above this many players a replay reads every member's state in one sweep instead.
MEMBER_FILTER_LIMIT = 20000


@dataclass
class MemberState:
    """A member's standing in one list between two tournaments."""

    rating: float | None = None  # None: not rated in this list (yet)
    provisional: bool = False
    history: Any = None
    best_grade: int | None = None  # highest grade rank professed so far (EGF resets)
    grade: int | None = None  # grade rank the list gives him
    tournaments: int = 0
    games: int = 0
    last_played: dt.date | None = None
    last_sequence: int = 0
    from_baseline: bool = False  # the list's baseline names him (he keeps an entry)


@dataclass
class HistoryRow:
    member_id: int
    tournament_id: int
    date: dt.date
    sequence: int
    rating_in: float | None
    before: float | None
    after: float | None
    change: float | None
    games_count: int
    rated: bool
    provisional: bool
    anomalous: bool
    reset: bool
    grade: int | None
    list_grade: int | None
    klass: str
    note: str
    history: Any
    breakdown: list[dict[str, Any]]


@dataclass
class ReplayOutcome:
    from_date: dt.date
    rows: list[HistoryRow] = field(default_factory=list)
    states: dict[int, MemberState] = field(default_factory=dict)
    touched: set[int] = field(default_factory=set)
    tournaments: int = 0
    games: int = 0
    not_rated: dict[int, str] = field(default_factory=dict)  # tournament id -> reason
    engine_seconds: float = 0.0  # time spent inside the rating system itself
    rated_ids: list[int] = field(default_factory=list)
    # A cone replay (ratings/cone.py) rewrites only these tournaments' rows from the date
    # (None: every row from the date) and moves the others' replay position to `sequences`.
    scope: list[int] | None = None
    sequences: dict[int, int] = field(default_factory=dict)
    applied_classes: dict[int, str] = field(default_factory=dict)  # EGF: tournament id -> class
    # Members whose entries the run rebuilds although it rates none of their games: all
    # the baseline names when the replay starts on or before its date.
    restarted: set[int] = field(default_factory=set)


_GRADES_BY_RANK = {grade.rank: grade for grade in ALL_GRADES}


def _grade(rank: int | None) -> Grade | None:
    return None if rank is None else _GRADES_BY_RANK[rank]


def _rank(value: Grade | int | None) -> int | None:
    """Grade columns come back as `Grade`; aggregates over them may too."""
    return value.rank if isinstance(value, Grade) else value


def states_before(
    rating_list: RatingList, day: dt.date, member_ids: list[int] | None = None
) -> dict[int, MemberState]:
    """Members' states in the list just before `day` (from the stored history): all of
    them, or only `member_ids` (a replay needs only the players it rates)."""
    if member_ids is not None and len(member_ids) <= MEMBER_FILTER_LIMIT:
        states: dict[int, MemberState] = {}
        for chunk in _chunks(member_ids, 5000):
            states.update(_states(rating_list, day, chunk))
        return with_baseline_starts(states, baseline_starts(rating_list, member_ids))
    states = _states(rating_list, day, None)
    return with_baseline_starts(states, baseline_starts(rating_list, member_ids))


def with_baseline_starts(
    states: dict[int, MemberState], starts: dict[int, BaselineStart]
) -> dict[int, MemberState]:
    """Start each member the baseline names from his row. His stored history (only
    tournaments after the baseline's date) moves him on from it; its counters add up."""
    for member_id, start in starts.items():
        state = states.get(member_id)
        if state is None:
            states[member_id] = MemberState(
                rating=start.rating,
                provisional=start.provisional,
                history=start.history,
                best_grade=start.best_grade,
                grade=start.grade,
                tournaments=start.tournaments,
                games=start.games,
                last_played=start.last_played,
                from_baseline=True,
            )
            continue
        state.from_baseline = True
        state.tournaments += start.tournaments
        state.games += start.games
        if start.best_grade is not None and (
            state.best_grade is None or start.best_grade > state.best_grade
        ):
            state.best_grade = start.best_grade
    return states


def _states(
    rating_list: RatingList, day: dt.date, member_ids: list[int] | None
) -> dict[int, MemberState]:
    """One sweep over the stored history before `day`."""
    earlier = RatingHistory.objects.filter(rating_list=rating_list, date__lt=day)
    if member_ids is not None:
        earlier = earlier.filter(member_id__in=member_ids)
    states: dict[int, MemberState] = {}
    totals = earlier.values("member_id").annotate(
        n=Count("id"), g=Sum("games_count"), best=Max("grade"), last=Max("date")
    )
    for row in totals:
        states[row["member_id"]] = MemberState(
            tournaments=row["n"],
            games=row["g"] or 0,
            best_grade=_rank(row["best"]),
            last_played=row["last"],
        )
    latest = earlier.order_by("member_id", "-sequence")
    if connection.vendor == "postgresql":
        latest = latest.distinct("member_id")
    fields = ("member_id", "sequence", "after", "rated", "provisional", "history", "list_grade")
    for member_id, sequence, after, _rated, provisional, history, list_grade in latest.values_list(
        *fields
    ).iterator(chunk_size=5000):
        state = states[member_id]
        if state.last_sequence:  # SQLite: rows after the first of a member are older
            continue
        state.last_sequence = sequence
        # A row not rated may still carry his rating on (a UFGO player kept by 1.7).
        state.rating = after
        state.provisional = provisional
        state.history = history
        state.grade = _rank(list_grade)
    return states


def last_sequence_before(rating_list: RatingList, day: dt.date) -> int:
    """The replay position of the list's last rated tournament before `day` (0: none).
    Sequences grow with dates, so the newest row answers (one index probe)."""
    last = (
        RatingHistory.objects.filter(rating_list=rating_list, date__lt=day)
        .order_by("-date", "-sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    return last or 0


def tournaments_from(
    rating_list: RatingList,
    day: dt.date,
    *,
    include: Tournament | None = None,
    exclude: Iterable[int] = (),
) -> list[Tournament]:
    """Tournaments the list approved, ending on or after `day`, in replay order."""
    ids = set(
        ListTournament.objects.filter(
            counted_links(), rating_list=rating_list, tournament__end_date__gte=day
        ).values_list("tournament_id", flat=True)
    )
    if include is not None:
        ids.add(include.pk)
    ids -= set(exclude)
    return list(Tournament.objects.filter(pk__in=ids).order_by("end_date", "pk"))


def load_games(tournament_ids: list[int]) -> dict[int, list[tuple[int, int, int, str, int]]]:
    games: dict[int, list[tuple[int, int, int, str, int]]] = defaultdict(list)
    rows = (
        GameRow.objects.filter(tournament_id__in=tournament_ids, kind=GameRow.Kind.PLAYED)
        .order_by("tournament_id", "round", "pk")
        .values_list("tournament_id", "round", "white_id", "black_id", "result", "handicap")
    )
    for tournament_id, round_number, white, black, result, handicap in _raw_rows(rows):
        games[tournament_id].append((round_number, white, black, result, handicap))
    return games


def _raw_rows(queryset: Any) -> Iterable[tuple[Any, ...]]:
    """A `values_list` query's rows as the driver returns them, in batches: a million games
    through Django's per-row converters cost more than reading them. Only for columns
    whose database value is the Python one (ids, numbers, text; a grade as its rank)."""
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:  # an empty `__in`: nothing to read
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        while batch := cursor.fetchmany(50000):
            yield from batch


def read_professed(
    tournament_ids: list[int],
) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    """(tournament, member) -> (grade rank professed there, rating declared there)."""
    professed: dict[tuple[int, int], tuple[int | None, int | None]] = {}
    for chunk in _chunks(tournament_ids, 2000):
        for t_id, m_id, grade, declared in _raw_rows(
            Participant.objects.filter(tournament_id__in=chunk).values_list(
                "tournament_id", "member_id", "grade", "rating_declared"
            )
        ):
            professed[(t_id, m_id)] = (_rank(grade), declared)
    return professed


def read_members(member_ids: list[int]) -> dict[int, tuple[dt.date | None, int | None, int | None]]:
    """member -> (birth date the rules use, FIDE rating, grade rank on his card)."""
    members: dict[int, tuple[dt.date | None, int | None, int | None]] = {}
    for chunk in _chunks(member_ids):
        for m_id, birth, birth_year, fide, grade in Member.objects.filter(pk__in=chunk).values_list(
            "id", "birth_date", "birth_year", "fide_rating", "grade"
        ):
            members[m_id] = (effective_birth_date(birth, birth_year), fide, _rank(grade))
    return members


def _chunks(ids: list[int], size: int = 20000) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


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
    restarted = baseline_member_ids(rating_list) if _restarts(start_date, from_date) else set()
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

    fide_history = _fide_history(member_ids) if rating_list.system == "orr" else {}
    publications = _publications(rating_list)
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
            fide_history=fide_history,
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


def _fide_history(member_ids: list[int]) -> dict[int, list[tuple[dt.date, int]]]:
    """Each member's FIDE ratings with the day each became valid, oldest first."""
    history: dict[int, list[tuple[dt.date, int]]] = defaultdict(list)
    for chunk in _chunks(member_ids):
        rows = (
            FideRating.objects.filter(member_id__in=chunk)
            .order_by("member_id", "valid_from")
            .values_list("member_id", "valid_from", "rating")
        )
        for member_id, valid_from, rating in rows:
            history[member_id].append((valid_from, rating))
    return history


def fide_ratings_on(history: dict[int, list[tuple[dt.date, int]]], day: dt.date) -> dict[int, int]:
    """The FIDE rating each member had on `day` (the latest valid from then or before);
    members with none known by then are not FIDE-rated for that tournament (issue 20)."""
    ratings: dict[int, int] = {}
    for member_id, dated in history.items():
        valid = [rating for valid_from, rating in dated if valid_from <= day]
        if valid:
            ratings[member_id] = valid[-1]
    return ratings


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


def _restarts(start_date: dt.date | None, from_date: dt.date) -> bool:
    return start_date is not None and from_date <= start_date


def before_baseline(
    tournament: Tournament, start_date: dt.date | None, named: frozenset[int]
) -> frozenset[int]:
    """The players the tournament leaves as they are: on or before the baseline's date,
    those it names (their row already counts it). They play at their baseline standing."""
    if start_date is None or tournament.end_date > start_date:
        return frozenset()
    return named


def _publications(rating_list: RatingList) -> list[tuple[dt.date, dict[int, int]]]:
    """Grades the list has published (UFGO gives 4-7 dan only there, 2.5), oldest first.

    A published snapshot is a fact: a replay hands its grades on to every player whose
    last tournament came before it."""
    if not rules.has_floating_grades(rating_list.system):
        return []
    grades: dict[dt.date, dict[int, int]] = defaultdict(dict)
    rows = PublishedEntry.objects.filter(
        snapshot__rating_list=rating_list, grade__isnull=False
    ).values_list("snapshot__date", "member_id", "grade")
    for date, member_id, grade in rows:
        rank = _rank(grade)
        if rank is not None:
            grades[date][member_id] = rank
    return sorted(grades.items())


def hand_on_publications(
    rating_list: RatingList, states: dict[int, MemberState], *, before: dt.date
) -> None:
    """Give `states` (read from the stored history) the grades of the list's publications
    dated before `before`, as a replay does between tournaments (ufgo.md B9: each
    publication starts from what the previous one left)."""
    _apply_publications(states, _publications(rating_list), before=before)


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
    players = []
    for member_id in player_ids:
        state = states.get(member_id)
        birth, fide, member_grade = members[member_id]
        grade_rank, declared = professed.get((tournament.pk, member_id), (None, None))
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
                id=str(member_id),
                rating=rating,
                grade=_grade(grade_rank) if go else None,
                best_grade=_grade(state.best_grade)
                if state is not None and system_code == "egf"
                else None,
                birth_date=birth,
                history=state.history if state is not None else None,
            )
        )
    engine_games = tuple(
        Game(
            round=r,
            white=str(w),
            black=str(b),
            result=result,  # type: ignore[arg-type]
            handicap=handicap if go else 0,
        )
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
    befores = {p.id: p.before for p in output.players}
    floating_grades = rules.has_floating_grades(rating_list.system)
    system = rating_list.system
    starts = {p.id: p.rating for p in event_input.players}
    grades = {p.id: p.grade for p in event_input.players}
    for result in output.players:
        member_id = int(result.id)
        if member_id in kept:
            continue
        state = states.setdefault(member_id, MemberState())
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
        grade_rank, _declared = professed.get((tournament.pk, member_id), (None, None))
        birth, _fide, member_grade = members[member_id]
        grade_rank = _grade_when_not_given(system, grade_rank, state, member_grade)
        rating_now = after if rated else rating_in
        if floating_grades:
            list_grade = rules.grade_after(
                rating_list.system,
                professed=_grade(grade_rank),
                held=_grade(state.grade),
                rating=rating_now,
                birth_date=birth,
                event_date=tournament.end_date,
            )
            list_rank = list_grade.rank if list_grade is not None else None
        else:  # the list shows what he professed last (the hot path of big recomputes)
            list_rank = grade_rank if grade_rank is not None else state.grade
        row = HistoryRow(
            member_id=member_id,
            tournament_id=tournament.pk,
            date=tournament.end_date,
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
            breakdown=[
                {
                    "round": g.round,
                    "opponent": int(g.opponent),
                    "opponent_rating": befores[g.opponent],
                    "score": g.score,
                    "expected": g.expected,
                    "change": g.change,
                }
                for g in result.games
            ],
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
        state.last_played = tournament.end_date
        state.last_sequence = sequence


def final_ratings(outcome: ReplayOutcome) -> dict[int, float | None]:
    return {member_id: outcome.states[member_id].rating for member_id in outcome.touched}
