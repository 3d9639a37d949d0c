"""The engine's data: what one event brings in and what comes out.

These immutable records are the inside of the contract in
`shared/spec/engine-contract.md`; `io.py` turns JSON into them and back.
Every system module takes an `EventInput` and returns an `EventOutput`.

The records of one event are frozen dataclasses; those an event brings by the
hundred or thousand (players, games, and their results) are named tuples,
several times quicker to build than a frozen dataclass (which sets each field
through `object.__setattr__`) and just as immutable.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import repeat
from typing import Literal, NamedTuple

from ratings.systems.grades import Grade

Result = Literal["white", "black", "draw"]
JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]


class BadInput(ValueError):
    """Malformed input; `field` names where (e.g. ``games[3].white``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    date: dt.date
    klass: Literal["A", "B", "C"] = "A"
    board: Literal[19, 13, 9] = 19
    official: bool = True
    participants: int | None = None


class Player(NamedTuple):
    """One player of the input."""

    id: str
    rating: float | None
    grade: Grade | None = None
    best_grade: Grade | None = None
    birth_date: dt.date | None = None
    history: JSON = None


class Game(NamedTuple):
    """One game of the input."""

    round: int
    white: str
    black: str
    result: Result
    handicap: int = 0

    def score_of(self, player_id: str) -> float:
        """1, 0.5 or 0 for the named player (who must be in the game)."""
        if self.result == "draw":
            return 0.5
        winner = self.white if self.result == "white" else self.black
        return 1.0 if winner == player_id else 0.0

    def opponent_of(self, player_id: str) -> str:
        return self.black if player_id == self.white else self.white


@dataclass(frozen=True, slots=True)
class EventInput:
    system: str
    params: Mapping[str, JSON]  # as given; the system validates values
    event: Event
    players: tuple[Player, ...]
    games: tuple[Game, ...]


class GameOutput(NamedTuple):
    """One game as one player saw it."""

    round: int
    opponent: str
    score: float
    expected: float | None  # None where the system uses no expectation for this game
    change: float


# A `GameOutput`'s fields as a plain tuple: what a rating loop writes per game (quickest
# to build) before the boundary turns it into a `GameOutput` or a JSON object.
GameRecord = tuple[int, str, float, float | None, float]


def game_outputs(records: Iterable[GameRecord]) -> tuple[GameOutput, ...]:
    """The records as `GameOutput`s: `GameOutput._make` for each, but without a
    Python-level call per game (a named tuple is a tuple with field names)."""
    return tuple(map(tuple.__new__, repeat(GameOutput), records))


class PlayerOutput(NamedTuple):
    """One player's result."""

    id: str
    before: float | None
    after: float | None
    change: float | None
    rated: bool = True
    provisional: bool = False
    anomalous: bool = False
    history: JSON = None
    games: tuple[GameOutput, ...] = ()


def rated_player(
    id: str, before: float, after: float, games: tuple[GameOutput, ...]
) -> PlayerOutput:
    """`PlayerOutput(id, before, after, after - before, games=games)`: a player the event
    rated, with no flag and no history, built without the named tuple's Python-level
    `__new__` (an event brings hundreds)."""
    return _new_tuple(
        PlayerOutput, (id, before, after, after - before, True, False, False, None, games)
    )


_new_tuple = tuple.__new__


@dataclass(frozen=True, slots=True)
class EventOutput:
    system: str
    event: str
    players: tuple[PlayerOutput, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RatingSystem:
    """One entry of the registry.

    `params` holds each published constant a caller may override, with its
    default; `rate` validates the values it is given (raising `BadInput`
    with the field ``params.<name>``) and rates one event.
    `needs_grade`: a newcomer without a grade is bad input (the Go systems).
    `several_games_per_round`: the system's spec defines what happens when a
    player has more than one game in a round (a batch of games); otherwise
    the core rejects it as bad input.
    `rate_json` (optional): `rate` written straight as the contract's output
    object, the same as `output.output_to_json(rate(event))` without building the
    output records in between (the JSON boundary's fast path).
    """

    code: str
    title: str
    params: Mapping[str, JSON]
    rate: Callable[[EventInput], EventOutput]
    rate_json: Callable[[EventInput], dict[str, JSON]] | None = None
    needs_grade: bool = False
    several_games_per_round: bool = False
