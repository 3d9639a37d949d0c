"""JSON: the engine contract's event (engine-contract.md), with the extras of formats.md §4.

Players' `id` is the member's external key (EGD PIN, FIDE ID or member id);
`rating` may be omitted (the rating list supplies it), which differs from
`"rating": null` (a newcomer). Extra player fields `name`, `country`, `club`;
extra event fields `name`, `city`, `country`, `start_date`, `time_control`.
Only played games are carried: byes and forfeits are not games here.
Problems have no line numbers in JSON; they name the place by its path,
e.g. `games[3].white`, as the engine does.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ratings.systems.grades import Grade
from tournaments.formats.bounds import MAX_KEY_NUMBER as MAX_WHOLE
from tournaments.formats.bounds import MAX_ROUNDS
from tournaments.formats.model import (
    FileGame,
    FilePlayer,
    GameResult,
    ProblemLog,
    ResultsFile,
    TimeControl,
    TournamentDetails,
    gettext_noop,
)

TOP_FIELDS = ("system", "params", "event", "players", "games")
EVENT_FIELDS = (
    "id", "date", "class", "board", "official", "participants",
    "name", "city", "country", "start_date", "time_control",
)  # fmt: skip
PLAYER_FIELDS = (
    "id",
    "rating",
    "grade",
    "best_grade",
    "birth_date",
    "history",
    "name",
    "country",
    "club",
)
GAME_FIELDS = ("round", "white", "black", "result", "handicap")
MAX_MINUTES = 99999  # the most the tournament's minutes field holds
MAX_INCREMENT_SECONDS = 36000  # as the tournament form allows
TIME_FIELDS = ("basic_minutes", "overtime", "fischer_increment_seconds")
CLASSES = ("A", "B", "C", "D", "X")
BOARDS = (19, 13, 9)
RESULTS: tuple[GameResult, ...] = ("white", "black", "draw")
MAX_HANDICAP = 9


class _Reader:
    """Walks the decoded JSON, logging each problem under its path."""

    def __init__(self, log: ProblemLog) -> None:
        self.log = log

    def error(self, path: str, template: str, **params: Any) -> None:
        """An error at `path` (e.g. games[3].handicap); `template` takes `params`."""
        self.log.error(None, template, where=path, **params)

    def object(self, value: Any, path: str, fields: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            self.error(path, gettext_noop("must be an object { … }."))
            return {}
        for name in value:
            if name not in fields:
                self.log.warn(
                    None,
                    gettext_noop("this field is not known and was ignored."),
                    where=f"{path}.{name}",
                )
        return value

    def text(self, data: Mapping[str, Any], name: str, path: str) -> str | None:
        value = data.get(name)
        if value is None:
            return None
        if not isinstance(value, str):
            self.error(f"{path}.{name}", gettext_noop("must be text."))
            return None
        return value

    def date(self, data: Mapping[str, Any], name: str, path: str) -> dt.date | None:
        value = self.text(data, name, path)
        if value is None:
            return None
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            self.error(
                f"{path}.{name}",
                gettext_noop("%(value)r is not a date like 2024-05-01."),
                value=value,
            )
            return None

    def number(
        self,
        data: Mapping[str, Any],
        name: str,
        path: str,
        low: float | None = None,
        high: float | None = None,
    ) -> float | None:
        value = data.get(name)
        if value is None:
            return None
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            self.error(f"{path}.{name}", gettext_noop("%(value)r is not a number."), value=value)
            return None
        if low is not None and high is not None and not low <= value <= high:
            self.error(
                f"{path}.{name}",
                gettext_noop("must be a number from %(low)s to %(high)s."),
                low=low,
                high=high,
            )
            return None
        return value

    def whole(
        self, data: Mapping[str, Any], name: str, path: str, low: int = 0, high: int = MAX_WHOLE
    ) -> int | None:
        value = data.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.error(
                f"{path}.{name}",
                gettext_noop("must be a whole number from %(low)s to %(high)s."),
                low=low,
                high=high,
            )
            return None
        return value

    def grade(self, data: Mapping[str, Any], name: str, path: str) -> str | None:
        value = self.text(data, name, path)
        if value is None:
            return None
        try:
            return str(Grade.parse(value))
        except ValueError:
            self.error(
                f"{path}.{name}",
                gettext_noop("%(value)r is not a grade (30k to 1k, 1d to 9d, 1p to 9p)."),
                value=value,
            )
            return None


def parse(text: str, filename: str | None = None) -> ResultsFile:
    """Read a JSON event; raise `FormatError` listing every error found."""
    log = ProblemLog()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        log.error(
            error.lineno,
            gettext_noop("This is not valid JSON: %(msg)s."),
            error.colno,
            msg=error.msg,
        )
        log.raise_if_errors()
    except RecursionError:
        log.error(None, gettext_noop("The JSON is nested too deeply."))
        log.raise_if_errors()
    read = _Reader(log)
    top = read.object(data, "file", TOP_FIELDS)
    details = _read_event(top, read)
    players = _read_players(top.get("players"), read)
    games = _read_games(top.get("games"), {p.key for p in players}, read)
    log.raise_if_errors()
    rounds = max((g.round for g in games), default=0)
    details = replace(details, rounds=rounds)
    return ResultsFile(details, tuple(players), tuple(games), (), log.warnings())


def _read_event(top: Mapping[str, Any], read: _Reader) -> TournamentDetails:
    system = read.text(top, "system", "file")
    params = top.get("params") or {}
    if not isinstance(params, dict):
        read.error("params", gettext_noop("must be an object { … }."))
        params = {}
    if "event" not in top:
        read.error("event", gettext_noop("is missing."))
    event = read.object(top.get("event", {}), "event", EVENT_FIELDS)
    if event and "date" not in event:
        read.error(
            "event.date", gettext_noop("is missing: the day the event ended, like 2024-05-01.")
        )
    klass = read.text(event, "class", "event")
    if klass is not None and klass not in CLASSES:
        read.error(
            "event.class",
            gettext_noop("%(klass)r is not one of A, B, C (or D, X for unrated)."),
            klass=klass,
        )
    elif klass in ("D", "X"):
        read.log.warn(
            None,
            gettext_noop("class %(klass)s is imported as not rated."),
            where="event.class",
            klass=klass,
        )
    board = event.get("board")
    if board is not None and (isinstance(board, bool) or board not in BOARDS):
        read.error(
            "event.board",
            gettext_noop("%(board)r is not a board size of 19, 13 or 9."),
            board=board,
        )
        board = None
    official = event.get("official")
    if official is not None and not isinstance(official, bool):
        read.error("event.official", gettext_noop("must be true or false."))
        official = None
    return TournamentDetails(
        name=read.text(event, "name", "event") or "",
        code=read.text(event, "id", "event"),
        city=read.text(event, "city", "event") or "",
        country=read.text(event, "country", "event") or "",
        start_date=read.date(event, "start_date", "event"),
        end_date=read.date(event, "date", "event"),
        tournament_class=klass,
        time_control=_read_time(event.get("time_control"), read),
        board_size=board,
        rating_system=system,
        params=params,
        official=official,
        participants=read.whole(event, "participants", "event", low=1),
    )


def _read_time(value: Any, read: _Reader) -> TimeControl | None:
    if value is None:
        return None
    data = read.object(value, "event.time_control", TIME_FIELDS)
    return TimeControl(
        # 1e308 minutes passed the preview and broke the save (issue 54): the model's range.
        basic_minutes=read.number(data, "basic_minutes", "event.time_control", 0, MAX_MINUTES),
        overtime=read.text(data, "overtime", "event.time_control"),
        fischer_increment_seconds=read.number(
            data, "fischer_increment_seconds", "event.time_control", 0, MAX_INCREMENT_SECONDS
        ),
    )


def _player_id(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _read_players(value: Any, read: _Reader) -> list[FilePlayer]:
    if not isinstance(value, list) or not value:
        read.error("players", gettext_noop("must be a non-empty list of players."))
        return []
    players: list[FilePlayer] = []
    seen: set[str] = set()
    for index, item in enumerate(value):
        path = f"players[{index}]"
        data = read.object(item, path, PLAYER_FIELDS)
        key = _player_id(data.get("id"))
        if key is None:
            read.error(
                f"{path}.id", gettext_noop("each player needs an id (text or a whole number).")
            )
            continue
        if key in seen:
            read.error(f"{path}.id", gettext_noop("the id %(key)r is used twice."), key=key)
            continue
        seen.add(key)
        players.append(
            FilePlayer(
                key=key,
                family_name=read.text(data, "name", path) or "",
                grade=read.grade(data, "grade", path),
                best_grade=read.grade(data, "best_grade", path),
                country=read.text(data, "country", path),
                club=read.text(data, "club", path),
                birth_date=read.date(data, "birth_date", path),
                rating=read.number(data, "rating", path),
                rating_stated="rating" in data,
                history=data.get("history"),
            )
        )
    return [replace(p, birth_year=p.birth_date.year) if p.birth_date else p for p in players]


def _read_games(value: Any, keys: set[str], read: _Reader) -> list[FileGame]:
    if value is None:
        return []
    if not isinstance(value, list):
        read.error("games", gettext_noop("must be a list of games."))
        return []
    games: list[FileGame] = []
    seats: dict[tuple[int, str], int] = {}
    for index, item in enumerate(value):
        path = f"games[{index}]"
        data = read.object(item, path, GAME_FIELDS)
        errors_before = read.log.error_count
        round_number = read.whole(data, "round", path, low=1, high=MAX_ROUNDS)
        if "round" not in data:
            read.error(f"{path}.round", gettext_noop("is missing."))
        sides = {}
        for side in ("white", "black"):
            key = _player_id(data.get(side))
            if key is None or key not in keys:
                read.error(
                    f"{path}.{side}",
                    gettext_noop("unknown player id %(value)r."),
                    value=data.get(side),
                )
            sides[side] = key or ""
        if sides["white"] and sides["white"] == sides["black"]:
            read.error(
                path, gettext_noop("player %(sides)r cannot play himself."), sides=sides["white"]
            )
        result = data.get("result")
        if result not in RESULTS:
            read.error(
                f"{path}.result",
                gettext_noop("%(result)r must be white, black or draw."),
                result=result,
            )
        handicap = read.whole(data, "handicap", path) or 0
        if handicap > MAX_HANDICAP:
            read.error(
                f"{path}.handicap",
                gettext_noop("%(handicap)s stones is more than %(MAX_HANDICAP)s."),
                handicap=handicap,
                MAX_HANDICAP=MAX_HANDICAP,
            )
        if read.log.error_count > errors_before or round_number is None:
            continue
        for key in sides.values():
            first = seats.setdefault((round_number, key), index)
            if first != index:
                read.error(
                    path,
                    gettext_noop(
                        "player %(key)r already plays in round %(round_number)s (games[%(first)s])."
                    ),
                    key=key,
                    round_number=round_number,
                    first=first,
                )
        outcome: GameResult = (
            "white" if result == "white" else "black" if result == "black" else "draw"
        )
        games.append(FileGame(round_number, sides["white"], sides["black"], outcome, handicap))
    return games


# ---------------------------------------------------------------- writing


def write(results: ResultsFile) -> str:
    """The event as the engine contract's JSON; only played games are written."""
    ids = _ids(results)
    document: dict[str, Any] = {}
    details = results.details
    if details.rating_system:
        document["system"] = details.rating_system
    if details.params:
        document["params"] = dict(details.params)
    document["event"] = _event(details)
    document["players"] = [_player(p, ids[p.key]) for p in results.players]
    document["games"] = [
        {
            "round": g.round,
            "white": ids[g.white],
            "black": ids[g.black],
            "result": g.result,
            "handicap": g.handicap,
        }
        for g in results.games
        if g.is_rated
    ]
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _ids(results: ResultsFile) -> dict[str, str]:
    """The external key: EGD PIN, else FIDE ID, else the file's own key; the key on any clash."""
    wanted = {p.key: p.egd_pin or p.fide_id or p.key for p in results.players}
    if len(set(wanted.values())) == len(wanted):
        return wanted
    return {p.key: p.key for p in results.players}


def _event(details: TournamentDetails) -> dict[str, Any]:
    event: dict[str, Any] = {}
    optional: list[tuple[str, Any]] = [
        ("id", details.code),
        ("date", details.end_date.isoformat() if details.end_date else None),
        ("class", details.tournament_class),
        ("board", details.board_size),
        ("official", details.official),
        ("participants", details.participants),
        ("name", details.name or None),
        ("city", details.city or None),
        ("country", details.country or None),
        ("start_date", details.start_date.isoformat() if details.start_date else None),
        ("time_control", _time(details.time_control)),
    ]
    event.update((name, value) for name, value in optional if value is not None)
    return event


def _time(time: TimeControl | None) -> dict[str, Any] | None:
    if time is None:
        return None
    parts = {
        "basic_minutes": time.basic_minutes,
        "overtime": time.overtime,
        "fischer_increment_seconds": time.fischer_increment_seconds,
    }
    parts = {name: value for name, value in parts.items() if value is not None}
    return parts or None


def _player(player: FilePlayer, player_id: str) -> dict[str, Any]:
    data: dict[str, Any] = {"id": player_id}
    if player.rating_stated or player.rating is not None:
        data["rating"] = player.rating
    optional: list[tuple[str, Any]] = [
        ("grade", player.grade),
        ("best_grade", player.best_grade),
        ("birth_date", player.birth_date.isoformat() if player.birth_date else None),
        ("history", player.history),
        ("name", " ".join(p for p in (player.family_name, player.given_name) if p) or None),
        ("country", player.country),
        ("club", player.club),
    ]
    data.update((name, value) for name, value in optional if value is not None)
    return data
