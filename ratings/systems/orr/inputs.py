"""ORR: what the engine reads besides games: `params` and the carried `history`.

Spec: `shared/spec/orr.md` Part D (params), B.8 (history), D3 (exact input
numbers), D17-D19 (unsettled bookkeeping), D25 (bad input).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ratings.systems.model import JSON, BadInput

DEFAULT_PARAMS: dict[str, JSON] = {
    "round_pd": True,
    "age_min": 5,
    "age_max": 13,
    "settle_games": 11,
    "settle_events": 2,
}
AGE_LIMIT = 100
# The contract boundary limits input ratings to this size; stored ratings get the same
# limit so that every later float conversion stays finite.
RATING_LIMIT = 1_000_000


# --- Parameters (Part D) --------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Settings:
    round_pd: bool
    age_min: int
    age_max: int
    settle_games: int
    settle_events: int


def _positive_int(params: Mapping[str, JSON], name: str) -> int:
    value = params.get(name, DEFAULT_PARAMS[name])
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadInput(f"params.{name}", f"must be a positive integer, got {value!r}")
    return value


def read_settings(params: Mapping[str, JSON]) -> Settings:
    """Validate the `params` values (Part D, D25)."""
    for name in params:
        if name not in DEFAULT_PARAMS:
            raise BadInput(f"params.{name}", "unknown parameter for orr")
    round_pd = params.get("round_pd", True)
    if not isinstance(round_pd, bool):
        raise BadInput("params.round_pd", f"must be true or false, got {round_pd!r}")
    age_min = _positive_int(params, "age_min")
    age_max = _positive_int(params, "age_max")
    if not age_min <= age_max <= AGE_LIMIT:
        raise BadInput("params.age_max", f"need age_min <= age_max <= {AGE_LIMIT}")
    return Settings(
        round_pd=round_pd,
        age_min=age_min,
        age_max=age_max,
        settle_games=_positive_int(params, "settle_games"),
        settle_events=_positive_int(params, "settle_events"),
    )


# --- Input helpers ----------------------------------------------------------------
def exact(value: object, field: str) -> Fraction:
    """A JSON number at its shortest decimal form (D3): 1500.5 is exactly 1500.5."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadInput(field, f"must be a number, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise BadInput(field, f"must be a finite number, got {value!r}")
    if abs(value) > RATING_LIMIT:
        raise BadInput(field, f"out of range (at most {RATING_LIMIT} in size)")
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def plain(value: Fraction) -> int | float:
    """A value for JSON: an int when whole, else the nearest float."""
    return value.numerator if value.denominator == 1 else to_float(value)


def to_float(value: Fraction) -> float:
    """`float(value)`: the quotient of two ints is correctly rounded, and much quicker
    than the generic `numbers.Rational.__float__` that `Fraction` inherits."""
    return value.numerator / value.denominator


@dataclass(frozen=True, slots=True)
class StoredGame:
    rating: Fraction
    score: Fraction


@dataclass(frozen=True, slots=True)
class Carried:
    """An unsettled player's `history` (B.8): events played and stored games."""

    events: int
    games: tuple[StoredGame, ...]
    raw_games: tuple[Mapping[str, JSON], ...]


_SCORES = {Fraction(0), Fraction(1, 2), Fraction(1)}


def read_history(history: JSON, field: str) -> Carried | None:
    """Parse and validate a player's `history` (B.8, D25)."""
    if history is None:
        return None
    if not isinstance(history, dict):
        raise BadInput(field, "must be an object with 'events' and 'games' or null")
    events = history.get("events")
    if isinstance(events, bool) or not isinstance(events, int) or events < 1:
        raise BadInput(f"{field}.events", f"must be a positive integer, got {events!r}")
    games = history.get("games")
    if not isinstance(games, list):
        raise BadInput(f"{field}.games", "must be a list")
    stored: list[StoredGame] = []
    raw: list[Mapping[str, JSON]] = []
    for index, game in enumerate(games):
        where = f"{field}.games[{index}]"
        if not isinstance(game, dict):
            raise BadInput(where, "must be an object with 'rating' and 'score'")
        score = exact(game.get("score"), f"{where}.score")
        if score not in _SCORES:
            raise BadInput(f"{where}.score", "must be 0, 0.5 or 1")
        stored.append(StoredGame(exact(game.get("rating"), f"{where}.rating"), score))
        raw.append(dict(game))
    return Carried(events, tuple(stored), tuple(raw))


def carried_state(
    event_id: str,
    carried: Carried | None,
    events: int,
    this_event: Sequence[tuple[int, str, Fraction, Fraction]],
) -> JSON:
    """An unsettled player's `history`: stored games unchanged, then this event's (B.8, D19).

    `this_event` holds (round, opponent id, opponent's standard-stage value, score).
    """
    stored: list[JSON] = [dict(raw) for raw in (carried.raw_games if carried else ())]
    added: list[JSON] = [
        {
            "event": event_id,
            "round": round_number,
            "opponent": opponent,
            "rating": plain(opponent_value),
            "score": plain(score),
        }
        for round_number, opponent, opponent_value, score in this_event
    ]
    return {"events": events, "games": stored + added}
