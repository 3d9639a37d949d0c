"""The neutral shape every published rating list is read into (EGD, FIDE, CSV).

A rating list is not a results file: it gives each player's standing on a date, not
games. Each row keeps its line, so problems and the import's preview can point at it.
Pure Python, no Django.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from tournaments.formats.model import Problem, ProblemLog, Sex

_GRADE = re.compile(r"^(\d{1,2})\s*([kdp])$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ListRow:
    """One player's standing in the list and who he is."""

    line: int
    key: str  # the list's own id for him: EGD PIN, FIDE ID, the CSV's `key`
    rating: float
    family_name: str = ""
    given_name: str = ""
    native_name: str = ""
    country: str | None = None  # two letters
    federation: str | None = None  # three letters (FIDE)
    club: str | None = None
    egd_pin: str | None = None
    fide_id: str | None = None
    sex: Sex | None = None
    birth_year: int | None = None
    title: str | None = None
    grade: str | None = None  # Go grade, normalised: "5k", "3d", "1p"
    best_grade: str | None = None
    provisional: bool = False
    tournaments: int | None = None
    games: int | None = None
    last_played: dt.date | None = None
    last_event: str | None = None  # EGD: the code of his last tournament
    k_factor: int | None = None  # FIDE
    inactive: bool = False  # FIDE flag i / wi
    above_100: bool | None = None  # Rivne: has been at or above 100 (D20)

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.family_name, self.given_name) if part) or self.key


@dataclass(frozen=True, slots=True)
class RatingListFile:
    source: str  # "egd", "fide", "csv"
    rows: tuple[ListRow, ...]
    date: dt.date | None = None  # the date the file itself states, if any
    warnings: tuple[Problem, ...] = ()
    # Rows that could not be read, each with its line and why: left out, the rest stands.
    left_out: tuple[Problem, ...] = ()


def rows_or_refuse(rows: list[ListRow], problems: ProblemLog) -> tuple[Problem, ...]:
    """The rows a parser could not read, to be left out (one bad row of 45,000 must not
    refuse the list). Refuses the file (`FormatError`) when no row could be read, or when
    so many could not that it is likely not in the format said (the log is full)."""
    if not rows or problems.full:
        problems.raise_if_errors()
    return tuple(p for p in problems.problems if p.severity == "error")


def normal_grade(text: str) -> str | None:
    """'5D' / '5 d' → '5d'; None when it is no Go grade (1-30k, 1-9d, 1-9p)."""
    match = _GRADE.match(text.strip())
    if not match:
        return None
    number, kind = int(match.group(1)), match.group(2).lower()
    limit = {"k": 30, "d": 9, "p": 9}[kind]
    return f"{number}{kind}" if 1 <= number <= limit else None
