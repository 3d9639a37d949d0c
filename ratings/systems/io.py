"""The JSON boundary of the engine (`spec/engine-contract.md`).

`parse_event` turns a decoded JSON object into an `EventInput`, checking
everything the contract calls bad input; every problem raises `BadInput`
naming the field (``games[3].white``) and what is wrong. The way back out
(an `EventOutput` as the contract's output object) is in `output.py`.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, cast

from ratings.systems.grades import Grade
from ratings.systems.model import (
    JSON,
    BadInput,
    Event,
    EventInput,
    Game,
    Player,
    RatingSystem,
    Result,
)

RATING_LIMIT = 1_000_000.0  # far beyond any real rating; keeps every system's arithmetic finite
MAX_HANDICAP = 9
MAX_ROUND = 1_000_000
RESULTS: tuple[Result, ...] = ("white", "black", "draw")
CLASSES = ("A", "B", "C")
BOARDS = (19, 13, 9)

TOP_FIELDS = frozenset({"system", "params", "event", "players", "games"})
EVENT_FIELDS = frozenset({"id", "date", "class", "board", "official", "participants"})
PLAYER_FIELDS = frozenset({"id", "rating", "grade", "best_grade", "birth_date", "history"})
GAME_FIELDS = frozenset({"round", "white", "black", "result", "handicap"})

# `Game(...)` without its Python-level `__new__` (a named tuple is a tuple with field
# names): the fields are checked just before.
_new_game = tuple.__new__
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MISSING = object()
T = TypeVar("T")


# --- Reading JSON text ---------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def loads(text: str | bytes) -> object:
    """Decode JSON strictly: no NaN/Infinity, no duplicate keys; errors are `BadInput`."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        raise BadInput(
            "input", f"malformed JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except UnicodeDecodeError:
        raise BadInput("input", "not UTF-8 text") from None
    except RecursionError:
        raise BadInput("input", "JSON nested too deeply") from None
    except ValueError as error:  # our hooks, or an integer too long to convert
        raise BadInput("input", f"malformed JSON: {error}") from None


def dumps(document: Mapping[str, JSON]) -> str:
    """Serialise an output dict deterministically (key order as built, no NaN)."""
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)


# --- Field checks --------------------------------------------------------------------------


def _object(value: object, field: str, allowed: frozenset[str]) -> dict[str, object]:
    if not isinstance(value, dict):
        raise BadInput(field or "input", "must be a JSON object")
    if value.keys() <= allowed:
        return cast(dict[str, object], value)
    for key in value:
        if not isinstance(key, str):
            raise BadInput(field or "input", f"keys must be strings, not {key!r}")
    for key in sorted(value):
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise BadInput(field or "input", f"unknown field {key!r} (known: {known})")
    return cast(dict[str, object], value)


def _join(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def _string(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadInput(field, "must be a non-empty string")
    return value


def _integer(value: object, field: str, low: int, high: int) -> int:
    if type(value) is not int:
        raise BadInput(field, "must be an integer")
    if not low <= value <= high:
        raise BadInput(field, f"must be between {low} and {high}, not {value}")
    return value


def _boolean(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise BadInput(field, "must be true or false")
    return value


def _date(value: object, field: str) -> dt.date:
    if not isinstance(value, str) or not _ISO_DATE.match(value):
        raise BadInput(field, "must be an ISO date YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise BadInput(field, f"no such date {value!r}") from None


def _rating(value: object, field: str) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float):
        raise BadInput(field, "must be a number or null")
    try:
        number = float(cast(float, value))
    except OverflowError:
        raise BadInput(field, "number out of range") from None
    if not math.isfinite(number):
        raise BadInput(field, "must be a finite number")
    if abs(number) > RATING_LIMIT:
        raise BadInput(field, f"out of range (at most {RATING_LIMIT:g} in size)")
    return cast(float, value)


@functools.lru_cache(maxsize=512)
def _parse_grade(text: str) -> Grade:
    return Grade.parse(text)  # grades are immutable and few: parse each spelling once


def _grade(value: object, field: str) -> Grade | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadInput(field, "must be a grade like '5k', '3d' or '1p'")
    try:
        return _parse_grade(value)
    except ValueError as error:
        raise BadInput(field, str(error)) from None


def check_json(value: object, field: str) -> JSON:
    """Check that `value` is plain JSON data (what `history` and `params` may hold)."""
    # Paths are kept as (parent, step) links and spelt out only for the error message,
    # so a deeply nested value costs linear time.
    Path = tuple[object, str] | None
    stack: list[tuple[object, Path]] = [(value, None)]
    while stack:
        item, path = stack.pop()
        if item is None or type(item) in (bool, int, str):
            continue
        if type(item) is float:
            if not math.isfinite(item):
                raise BadInput(_spell(field, path), "must be a finite number")
        elif isinstance(item, list):
            stack.extend((element, (path, f"[{i}]")) for i, element in enumerate(item))
        elif isinstance(item, dict):
            for key, element in item.items():
                if not isinstance(key, str):
                    raise BadInput(_spell(field, path), f"keys must be strings, not {key!r}")
                stack.append((element, (path, f".{key}")))
        else:
            raise BadInput(_spell(field, path), f"not JSON data ({type(item).__name__})")
    return cast(JSON, value)


def _spell(field: str, path: tuple[object, str] | None) -> str:
    steps: list[str] = []
    while path is not None:
        parent, step = path
        steps.append(step)
        path = cast(tuple[object, str] | None, parent)
    return field + "".join(reversed(steps))


def _optional(
    data: Mapping[str, object], key: str, field: str, check: Callable[[object, str], T], default: T
) -> T:
    value = data.get(key, _MISSING)
    if value is _MISSING:
        return default
    return check(value, _join(field, key))


def _required(data: Mapping[str, object], key: str, field: str) -> object:
    if key not in data:
        raise BadInput(_join(field, key), "missing")
    return data[key]


# --- The event -----------------------------------------------------------------------------


def _parse_event_block(value: object) -> Event:
    data = _object(value, "event", EVENT_FIELDS)
    klass = _optional(data, "class", "event", _choice(CLASSES), "A")
    board = _optional(data, "board", "event", _int_choice(BOARDS), 19)
    participants = _optional(data, "participants", "event", _participants, None)
    return Event(
        id=_string(_required(data, "id", "event"), "event.id"),
        date=_date(_required(data, "date", "event"), "event.date"),
        klass=cast(Literal["A", "B", "C"], klass),
        board=cast(Literal[19, 13, 9], board),
        official=_optional(data, "official", "event", _boolean, True),
        participants=participants,
    )


def _choice(options: tuple[str, ...]) -> Callable[[object, str], str]:
    def check(value: object, field: str) -> str:
        if not isinstance(value, str) or value not in options:
            raise BadInput(field, f"must be one of {', '.join(options)}")
        return value

    return check


def _int_choice(options: tuple[int, ...]) -> Callable[[object, str], int]:
    def check(value: object, field: str) -> int:
        if type(value) is not int or value not in options:
            raise BadInput(field, f"must be one of {', '.join(map(str, options))}")
        return value

    return check


def _participants(value: object, field: str) -> int | None:
    if value is None:
        return None
    return _integer(value, field, 1, 1_000_000)


def _parse_player(value: object, index: int, needs_grade: bool) -> Player:
    # Fast path for a well-formed player (an event brings hundreds); anything unusual
    # goes through the field-by-field checks, which name the problem.
    if type(value) is dict and value.keys() <= PLAYER_FIELDS:
        player_id, rating, grade = (
            value.get("id"),
            value.get("rating", _MISSING),
            value.get("grade"),
        )
        best_grade, birth_date, history = (
            value.get("best_grade"),
            value.get("birth_date"),
            value.get("history"),
        )
        if (
            type(player_id) is str
            and player_id
            and not player_id.isspace()  # `_string`: not blank
            and (
                rating is None
                or (type(rating) is float or type(rating) is int)
                and -RATING_LIMIT <= rating <= RATING_LIMIT  # NaN and infinities fail this
            )
            and (grade is None or type(grade) is str)
            and (best_grade is None or type(best_grade) is str)
            and (birth_date is None or type(birth_date) is str and _ISO_DATE.match(birth_date))
            and history is None
            and not (needs_grade and rating is None and grade is None)
        ):
            try:
                return Player(
                    player_id,
                    rating,  # a number checked above, or None
                    None if grade is None else _parse_grade(grade),
                    None if best_grade is None else _parse_grade(best_grade),
                    None if birth_date is None else dt.date.fromisoformat(birth_date),
                )
            except ValueError:
                pass  # a misspelt grade or no such date: the checks below say which
    if type(value) is not dict or not value.keys() <= PLAYER_FIELDS:
        _object(value, f"players[{index}]", PLAYER_FIELDS)  # names what is wrong
    try:
        return _player(cast(dict[str, object], value), needs_grade)
    except BadInput as error:  # the field's name is spelt out only when it is needed
        raise BadInput(f"players[{index}].{error.field}", error.message) from None


def _player(data: dict[str, object], needs_grade: bool) -> Player:
    """A player object's values, checked; a `BadInput` names the field inside the player."""
    rating = _rating(_required(data, "rating", ""), "rating")
    grade = _grade(data.get("grade"), "grade")
    if needs_grade and rating is None and grade is None:
        raise BadInput("grade", "a new player (rating null) needs a grade")
    history = data.get("history")
    return Player(
        id=_string(_required(data, "id", ""), "id"),
        rating=rating,
        grade=grade,
        best_grade=_grade(data.get("best_grade"), "best_grade"),
        birth_date=_optional_date(data.get("birth_date"), "birth_date"),
        history=None if history is None else check_json(history, "history"),
    )


def _optional_date(value: object, field: str) -> dt.date | None:
    return None if value is None else _date(value, field)


def _parse_games(items: list[object], player_ids: set[str], once_per_round: bool) -> list[Game]:
    """The games, checked in one pass: each game's fields, and (unless the system allows
    a batch) that nobody plays twice in one round."""
    games: list[Game] = []
    playing: dict[int, set[str]] = {}  # round -> the ids already playing in it
    for index, value in enumerate(items):
        # Fast path for a well-formed game (there are tens of thousands in a season);
        # anything unusual goes through the field-by-field checks, which name the problem.
        game = None
        if type(value) is dict:
            round_number, white, black = value.get("round"), value.get("white"), value.get("black")
            result, handicap = value.get("result"), value.get("handicap", 0)
            if (
                # The four required fields are checked below: then no field is unknown.
                len(value) == (5 if "handicap" in value else 4)
                and type(round_number) is int
                and 1 <= round_number <= MAX_ROUND
                and type(white) is str
                and type(black) is str
                and white != black
                and white in player_ids
                and black in player_ids
                and type(result) is str
                and result in RESULTS
                and type(handicap) is int
                and 0 <= handicap <= MAX_HANDICAP
            ):
                game = _new_game(Game, (round_number, white, black, result, handicap))
        if game is None:
            game = _parse_game_checked(value, index, player_ids)
        if once_per_round:
            round_number, white, black, _, _ = game
            busy = playing.get(round_number)
            if busy is None:
                busy = playing[round_number] = set()
            if white in busy or black in busy:
                side, player_id = ("white", white) if white in busy else ("black", black)
                raise BadInput(
                    f"games[{index}].{side}",
                    f"player {player_id!r} already plays in round {round_number}",
                )
            busy.add(white)
            busy.add(black)
        games.append(game)
    return games


def _parse_game_checked(value: object, index: int, player_ids: set[str]) -> Game:
    field = f"games[{index}]"
    data = _object(value, field, GAME_FIELDS)
    round_number = _integer(_required(data, "round", field), f"{field}.round", 1, MAX_ROUND)
    white = _player_ref(_required(data, "white", field), f"{field}.white", player_ids)
    black = _player_ref(_required(data, "black", field), f"{field}.black", player_ids)
    if white == black:
        raise BadInput(f"{field}.black", f"player {white!r} cannot play himself")
    result = _required(data, "result", field)
    if not isinstance(result, str) or result not in RESULTS:
        raise BadInput(f"{field}.result", "must be 'white', 'black' or 'draw'")
    handicap = _optional(data, "handicap", field, _handicap, 0)
    return Game(round_number, white, black, result, handicap)


def _player_ref(value: object, field: str, player_ids: set[str]) -> str:
    if not isinstance(value, str):
        raise BadInput(field, "must be a player id (a string)")
    if value not in player_ids:
        raise BadInput(field, f"unknown player id {value!r}")
    return value


def _handicap(value: object, field: str) -> int:
    return _integer(value, field, 0, MAX_HANDICAP)


def _list(value: object, field: str) -> list[object]:
    if not isinstance(value, list):
        raise BadInput(field, "must be a list")
    return value


def parse_event(
    raw: object, systems: Mapping[str, RatingSystem]
) -> tuple[RatingSystem, EventInput]:
    """Validate one decoded input document and build the `EventInput` (the contract's input)."""
    data = _object(raw, "", TOP_FIELDS)
    code = _required(data, "system", "")
    if not isinstance(code, str) or code not in systems:
        raise BadInput("system", f"unknown system {code!r} (known: {', '.join(sorted(systems))})")
    system = systems[code]

    params_value = data.get("params")
    params: dict[str, JSON] = {}
    if params_value is not None:
        given = _object(params_value, "params", frozenset(system.params))
        params = {key: check_json(given[key], f"params.{key}") for key in given}

    event = _parse_event_block(_required(data, "event", ""))

    players: list[Player] = []
    seen: set[str] = set()
    for index, item in enumerate(_list(_required(data, "players", ""), "players")):
        player = _parse_player(item, index, system.needs_grade)
        if player.id in seen:
            raise BadInput(f"players[{index}].id", f"duplicate player id {player.id!r}")
        seen.add(player.id)
        players.append(player)

    items = _list(_required(data, "games", ""), "games")
    games = _parse_games(items, seen, once_per_round=not system.several_games_per_round)

    return system, EventInput(
        system=code, params=params, event=event, players=tuple(players), games=tuple(games)
    )
