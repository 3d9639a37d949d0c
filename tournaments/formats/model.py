"""The neutral shape every results file is read into and written from.

Each format module (`egd`, `trf`, `csv_games`, `json_format`) parses its text
into a `ResultsFile` and writes a `ResultsFile` back. Everything here is
frozen and free of Django, so the database import service can take a parsed
file, show its preview and decide what to save.

Players are referred to by `key`: the id the file itself uses for them (the
place number in an EGD table, the starting rank in a TRF, the id or exact
name in CSV and JSON).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]
GameResult = Literal["white", "black", "draw", "none"]
# "unplayed": paired, but the file enters no result (OpenGotha's `5?`, a TRF blank or `*`).
GameKind = Literal["played", "forfeit", "unrated", "unplayed"]
ByeKind = Literal["free", "requested", "pairing", "absent", "forfeit", "unplayed"]
Sex = Literal["m", "f"]


def gettext_noop(message: str) -> str:
    """Marks a problem's English template for the site's translators (`makemessages`
    picks it up by this name); the site renders it in the reader's language when it
    shows it (`tournaments.messages.problem_text`). Django-free on purpose."""
    return message


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong (error) or worth a look (warning), with where it is.

    `message` is the English text; `template` and `params` are what it was made from,
    so a page can render it again in its reader's language."""

    line: int | None
    column: int | None
    message: str
    severity: Severity = "error"
    template: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    where: str = ""  # a place in the file that is not a line, e.g. JSON's games[3].white

    @classmethod
    def of(
        cls,
        line: int | None,
        column: int | None,
        template: str,
        severity: Severity = "error",
        where: str = "",
        **params: Any,
    ) -> Problem:
        """A problem from an English template with %(name)s parameters."""
        message = template % params if params else template
        if where:
            message = f"{where}: {message}"
        return cls(line, column, message, severity, template, params, where)

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


class FormatError(ValueError):
    """The file cannot be imported. Carries every error found, not only the first."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        errors = [p for p in self.problems if p.severity == "error"] or list(self.problems)
        summary = str(errors[0]) if errors else "the file cannot be read"
        if len(errors) > 1:
            summary += f" (and {len(errors) - 1} more problems)"
        super().__init__(summary)

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")


MAX_PROBLEMS_KEPT = 500  # a garbage upload must not build a million messages


class ProblemLog:
    """Collects problems while a parser walks the file; raises at the end if any is an error."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.error_count = 0

    def _add(self, problem: Problem) -> None:
        if len(self.problems) < MAX_PROBLEMS_KEPT:
            self.problems.append(problem)
        elif len(self.problems) == MAX_PROBLEMS_KEPT:
            self.problems.append(
                Problem.of(None, None, gettext_noop("Too many problems; the rest are not listed."))
            )

    @property
    def full(self) -> bool:
        """Enough errors to refuse the file: parsers may stop reading."""
        return self.error_count >= MAX_PROBLEMS_KEPT

    def error(
        self,
        line: int | None,
        template: str,
        column: int | None = None,
        where: str = "",
        **params: Any,
    ) -> None:
        """An error; `template` (marked with `gettext_noop`) takes %(name)s `params`."""
        self.error_count += 1
        self._add(Problem.of(line, column, template, "error", where, **params))

    def warn(
        self,
        line: int | None,
        template: str,
        column: int | None = None,
        where: str = "",
        **params: Any,
    ) -> None:
        self._add(Problem.of(line, column, template, "warning", where, **params))

    @property
    def has_errors(self) -> bool:
        return self.error_count > 0

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise FormatError(self.problems)

    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """What a file says about thinking time; every part may be unknown."""

    basic_minutes: float | None = None
    overtime: str | None = None  # e.g. "byoyomi 5x30s"
    fischer_increment_seconds: float | None = None
    adjusted_minutes: float | None = None  # EGD `TM[...]`
    description: str | None = None  # free text, e.g. TRF record 122 "90'+30''"


@dataclass(frozen=True, slots=True)
class TournamentDetails:
    name: str = ""
    code: str | None = None  # EGD `TC[...]`, JSON `event.id`
    city: str = ""
    country: str = ""  # two letters (EGD `PC[...]`, JSON)
    federation: str = ""  # three letters (TRF record 032)
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    tournament_class: str | None = None  # A, B, C; D (online) and X (unrated) are not rated
    handicap_rule: int | None = None  # N of `hN`; None when the file does not say
    komi: float | None = None
    time_control: TimeControl | None = None
    rounds: int = 0
    board_size: int | None = None
    comment: str = ""
    chief_arbiter: str = ""
    tournament_type: str = ""  # TRF record 092
    round_dates: tuple[str, ...] = ()  # TRF record 132, as written
    trf_version: Literal["16", "26"] | None = None
    extra_records: tuple[str, ...] = ()  # TRF records we do not know, kept as written
    # The engine contract's fields, carried by the JSON format.
    rating_system: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    official: bool | None = None
    participants: int | None = None

    @property
    def is_rated_class(self) -> bool:
        """D (online) and X (unrated) tournaments are imported but not rated."""
        return self.tournament_class not in ("D", "X")


@dataclass(frozen=True, slots=True)
class FilePlayer:
    key: str
    family_name: str = ""
    given_name: str = ""
    grade: str | None = None  # Go grade, normalised: "5k", "3d", "1p"
    country: str | None = None  # two letters
    club: str | None = None
    egd_pin: str | None = None
    fide_id: str | None = None
    fide_rating: int | None = None
    federation: str | None = None  # three letters (TRF)
    title: str | None = None  # chess title (TRF)
    birth_date: dt.date | None = None
    birth_year: int | None = None  # set alone when the file gives only the year
    sex: Sex | None = None
    place: int | None = None  # final place / rank in the file
    # The score as the file states it (TRF): derived data, so not part of equality.
    points: float | None = field(default=None, compare=False)
    # Engine-contract fields carried by the JSON format.
    rating: float | None = None
    rating_stated: bool = False  # JSON: `"rating": null` (a newcomer) differs from no rating given
    best_grade: str | None = None
    history: Any = None
    line: int | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """ "Family Given", or the key when the file names the player by key only."""
        full = " ".join(part for part in (self.family_name, self.given_name) if part)
        return full or self.key


@dataclass(frozen=True, slots=True)
class FileGame:
    """A pairing between two players in one round.

    `kind`: `played` (rated), `forfeit` (won or lost by default, counts in the
    standings, never rated), `unrated` (TRF's W/D/L: over before a move).
    `result` is `none` only for a forfeit both players lost.
    `colours_known` is false where the file does not say who had White; then
    `white` is simply the player listed first.
    """

    round: int
    white: str
    black: str
    result: GameResult
    handicap: int = 0
    kind: GameKind = "played"
    colours_known: bool = True
    line: int | None = field(default=None, compare=False)

    @property
    def is_rated(self) -> bool:
        return self.kind == "played"

    def points_of(self, key: str) -> float:
        if self.result == "none":
            return 0.0
        if self.result == "draw":
            return 0.5
        winner = self.white if self.result == "white" else self.black
        return 1.0 if winner == key else 0.0


@dataclass(frozen=True, slots=True)
class FileBye:
    """A round without an opponent: `points` is 1, 0.5 or 0. Never rated."""

    round: int
    player: str
    points: float
    kind: ByeKind = "free"
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class ResultsFile:
    details: TournamentDetails
    players: tuple[FilePlayer, ...]
    games: tuple[FileGame, ...] = ()
    byes: tuple[FileBye, ...] = ()
    warnings: tuple[Problem, ...] = field(default=(), compare=False)
    encoding: str = field(default="utf-8", compare=False)  # how the file's bytes were read
    # The decoded text and the format code it was parsed as (`parse` sets them), so an
    # import can keep what the application does not use (`kept_lines`).
    source_text: str = field(default="", compare=False, repr=False)
    source_format: str = field(default="", compare=False)

    def player(self, key: str) -> FilePlayer:
        for candidate in self.players:
            if candidate.key == key:
                return candidate
        raise KeyError(key)

    def points_of(self, key: str) -> float:
        games = sum(g.points_of(key) for g in self.games if key in (g.white, g.black))
        return games + sum(b.points for b in self.byes if b.player == key)

    def seats(self) -> dict[tuple[int, str], FileGame | FileBye]:
        """What each player did in each round, by (round, key): for writers."""
        seats: dict[tuple[int, str], FileGame | FileBye] = {}
        for game in self.games:
            seats.setdefault((game.round, game.white), game)
            seats.setdefault((game.round, game.black), game)
        for bye in self.byes:
            seats.setdefault((bye.round, bye.player), bye)
        return seats

    def all_points(self) -> dict[str, float]:
        points = dict.fromkeys((p.key for p in self.players), 0.0)
        for game in self.games:
            for key in (game.white, game.black):
                points[key] = points.get(key, 0.0) + game.points_of(key)
        for bye in self.byes:
            points[bye.player] = points.get(bye.player, 0.0) + bye.points
        return points
