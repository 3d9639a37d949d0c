"""What a replay carries between tournaments (each member's state) and what it returns
(history rows, the outcome the recompute stores or the preview compares)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ratings.systems.grades import ALL_GRADES, Grade
from ratings.systems.model import GameOutput

# A member's card as a replay reads it (`reads.read_members`): birth date the rules use,
# FIDE rating, grade rank.
Card = tuple[dt.date | None, int | None, int | None]


@dataclass(slots=True)
class MemberState:
    """A member's standing in one list between two tournaments. With slots: a replay
    reads and sets its fields 400,000 times at EGD scale, each a dict lookup without."""

    rating: float | None = None  # None: not rated in this list (yet)
    provisional: bool = False
    history: Any = None
    best_grade: int | None = None  # highest grade rank professed so far (EGF resets)
    grade: int | None = None  # grade rank the list gives him
    tournaments: int = 0
    games: int = 0
    last_played: dt.date | None = None
    from_baseline: bool = False  # the list's baseline names him (he keeps an entry)
    # His member card, kept with his standing so that a replay finds both in one lookup.
    card: Card | None = field(default=None, compare=False, repr=False)


# One game of a history row's breakdown, as a tuple in this order (JSON objects with these
# keys in the database): a replay builds two million of them at EGD scale.
BREAKDOWN_FIELDS = ("round", "opponent", "opponent_rating", "score", "expected", "change")
BreakdownGame = tuple[int, int, float | None, float, float | None, float]


class HistoryRow(NamedTuple):
    """One history row as a replay builds it (400,000 at EGD scale): a named tuple, built
    in one call (`tuple.__new__(HistoryRow, columns)`, without the Python-level `__new__`
    that checks its arguments), and digested by slicing its columns."""

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
    tournaments_so_far: int
    games_so_far: int
    best_grade_so_far: int | None
    history: Any
    # The engine's games of his (round, opponent's id as text, score, expected, change):
    # kept as the engine gave them, and written (`resolved_breakdown`) with his opponents'
    # columns from `opponents`, only for the rows that changed.
    breakdown: tuple[GameOutput, ...]
    # The table's players: id as text -> (member id, rating before); one dict for all the
    # table's rows.
    opponents: dict[str, tuple[int, float | None]]


def resolved_breakdown(row: HistoryRow) -> tuple[BreakdownGame, ...]:
    """A row's breakdown as stored: `BREAKDOWN_FIELDS` of each game."""
    opponents = row.opponents
    # `for ... in (one,)` names the opponent's two columns without a star (a third faster).
    return tuple(
        [
            (r, m, b, score, se, ch)
            for r, o, score, se, ch in row.breakdown
            for m, b in (opponents[o],)
        ]
    )


Key = tuple[int, int]  # a history row's key: (member, tournament)


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
    # Each rated table's `history_write.table_digest` of its rows (a table without rows
    # has none).
    table_digests: dict[int, int] = field(default_factory=dict)
    # When the outcome is to be stored: the stored digests of the tables it may rate. A
    # table whose rows come out as stored (the same digest) keeps none of them in `rows`:
    # it is `unchanged`, and its stored rows stand.
    stored_digests: dict[int, int | None] | None = None
    unchanged: set[int] = field(default_factory=set)
    # Tables a cone rated only in part (`replay.rate_tournament`'s `partial`): no digest
    # of all their rows; the store clears the stored one, and the next full recompute
    # compares their rows one by one.
    undigested: set[int] = field(default_factory=set)
    # A cone replay (ratings/recompute/cone.py) rewrites only these tournaments' rows from
    # the date (None: every row from the date).
    scope: list[int] | None = None
    applied_classes: dict[int, str] = field(default_factory=dict)  # EGF: tournament id -> class
    # Members whose entries the run rebuilds although it rates none of their games: all
    # the baseline names when the replay starts on or before its date.
    restarted: set[int] = field(default_factory=set)
    # A cone replay's read of the stored rows of the tables in its scope: tournament ->
    # member -> (sequence, fingerprint), so that the store need not read them again.
    stored_keys: dict[int, dict[int, tuple[int, int | None]]] | None = None
    # Rows a cone replay knows to be stored as they are: come out as stored (egf: neither
    # the player nor an opponent of his there differs, cone.py), or compared and rewritten
    # already (`history_write.EarlyWrites`, `written_early` of them). The store leaves them
    # as they are without comparing them. None of them is in `rows`.
    standing: set[Key] = field(default_factory=set)
    written_early: int = 0
    # A full replay's read of the list's tables with stored rows from its date (PostgreSQL,
    # to be stored), made while it rated them, so that the store need not wait for it.
    stored_tables: set[int] | None = None


GRADES_BY_RANK = {grade.rank: grade for grade in ALL_GRADES}


def grade_of(rank: int | None) -> Grade | None:
    return None if rank is None else GRADES_BY_RANK[rank]


def rank_of(value: Grade | int | None) -> int | None:
    """Grade columns come back as `Grade`; aggregates over them may too."""
    return value.rank if isinstance(value, Grade) else value
