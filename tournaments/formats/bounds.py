"""The sizes a results file may set, checked right after parsing, before any matching or
saving: the form allows 30 rounds, and a file must not set more. Each refusal names the
line (or the JSON path) it comes from, as the formats' other errors do.

Why these numbers: the largest real tables (a European Go Congress) have ~700 players over
10 rounds; 2,000 players and 30 rounds leave room. Dates outside 1900-2100 are typing
slips, and dates near year 9999 break the lists' date arithmetic.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from clubsite.input_checks import name_problem
from clubsite.numbers import int_or_none, is_ascii_number
from tournaments.formats.list_model import ListRow, RatingListFile
from tournaments.formats.model import FormatError, Problem, ResultsFile

MAX_ROUNDS = 30
MAX_PLAYERS = 2000
MAX_GAMES = MAX_PLAYERS * MAX_ROUNDS // 2
MIN_YEAR, MAX_YEAR = 1900, 2100
MAX_LISTED = 20  # problems named when a whole list is refused
MAX_KEY_NUMBER = 10**9  # a number in a file beyond this is not a place, rank or id

__all__ = [
    "MAX_GAMES",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_YEAR",
    "MIN_YEAR",
    "check_sizes",
    "file_int",
    "is_ascii_number",
    "list_rows_in_bounds",
]


def file_int(text: str, *, minimum: int = 0, maximum: int = MAX_KEY_NUMBER) -> int | None:
    """A number in a file: ASCII digits only, within the range; None otherwise."""
    return int_or_none(text, minimum=minimum, maximum=maximum)


def date_in_range(day: dt.date | None) -> bool:
    return day is None or MIN_YEAR <= day.year <= MAX_YEAR


def check_sizes(results: ResultsFile) -> None:
    """Raise FormatError when the file sets more rounds, players or games than the site
    takes, or a date outside MIN_YEAR..MAX_YEAR."""
    problems: list[Problem] = []
    details = results.details
    if details.rounds > MAX_ROUNDS:
        problems.append(
            Problem(None, None, f"The file has {details.rounds} rounds; at most {MAX_ROUNDS}.")
        )
    for name, day in (("start", details.start_date), ("end", details.end_date)):
        if not date_in_range(day):
            problems.append(
                Problem(None, None, f"The {name} date {day} is not between {MIN_YEAR} and {MAX_YEAR}.")
            )  # fmt: skip
    if len(results.players) > MAX_PLAYERS:
        line = results.players[MAX_PLAYERS].line
        problems.append(
            Problem(line, None, f"The file has {len(results.players)} players; at most {MAX_PLAYERS}.")
        )  # fmt: skip
    if len(results.games) > MAX_GAMES:
        line = results.games[MAX_GAMES].line
        problems.append(
            Problem(line, None, f"The file has {len(results.games)} games; at most {MAX_GAMES}.")
        )
    for player in results.players:
        if not date_in_range(player.birth_date):
            problems.append(
                Problem(player.line, None, f"The birth date {player.birth_date} is not between "
                        f"{MIN_YEAR} and {MAX_YEAR}.")
            )  # fmt: skip
            break
    problems += _name_problems(
        [(None, "The tournament's name", details.name), (None, "The city", details.city)]
        + [(p.line, "The name", text) for p in results.players
           for text in (p.family_name, p.given_name, p.club or "")]
    )  # fmt: skip
    for index, item in enumerate((*results.games, *results.byes), start=1):
        if not 1 <= item.round <= MAX_ROUNDS:
            where = "" if item.line is not None else f"Game or bye {index}: "
            problems.append(
                Problem(item.line, None, f"{where}round {item.round} is not from 1 to {MAX_ROUNDS}.")
            )  # fmt: skip
            break
    if problems:
        raise FormatError(problems)


def list_rows_in_bounds(listfile: RatingListFile) -> RatingListFile:
    """The list without the rows that state a date outside MIN_YEAR..MAX_YEAR (a baseline
    row's `last_played` of 9999-12-31 stopped every recompute of an EGF list) or a name with
    a control character or a direction mark: each is left out with its line, as the
    parsers leave out a row they cannot read (issue 53). Raises FormatError when the list's
    own date is out of range or no row is left."""
    if not date_in_range(listfile.date):
        raise FormatError(
            [Problem(None, None, f"The list's date {listfile.date} is not between {MIN_YEAR} and "
                     f"{MAX_YEAR}.")]
        )  # fmt: skip
    kept: list[ListRow] = []
    left_out: list[Problem] = []
    for row in listfile.rows:
        problems = _name_problems(
            [(row.line, "The name", text)
             for text in (row.family_name, row.given_name, row.native_name, row.club or "")]
        )  # fmt: skip
        if not date_in_range(row.last_played):
            problems.append(
                Problem(row.line, None, f"last_played {row.last_played} is not between "
                        f"{MIN_YEAR} and {MAX_YEAR}.")
            )  # fmt: skip
        if problems:
            left_out += problems
        else:
            kept.append(row)
    if not left_out:
        return listfile
    if not kept:
        raise FormatError(left_out[:MAX_LISTED])
    return replace(listfile, rows=tuple(kept), left_out=(*listfile.left_out, *left_out))


def _name_problems(texts: list[tuple[int | None, str, str]]) -> list[Problem]:
    """The first few names (line, what, text) that hold a line break, another control
    character or a direction mark (a right-to-left override reorders the name on every page)."""
    problems: list[Problem] = []
    for line, what, text in texts:
        why = name_problem(text)
        if why is not None:
            problems.append(Problem(line, None, f"{what} {text[:40]!r} cannot be used: {why}."))
            if len(problems) >= 10:
                break
    return problems
