"""Reversi on the games Zone, USCF-style Elo (`uscf`).

Spec: `shared/spec/uscf.md` (Part B is the algorithm, Part C the decisions U1-U12).
Games are rated one at a time (U2); ratings are whole numbers after each game.

Exactness: the expectation is computed in high-precision decimal so that the
reported `expected` is the correctly rounded double of 1/(10^(dr/400) + 1), and
ratings are carried as exact fractions so that the crossing factors 1.33 etc.
never suffer binary rounding (Part B, step 5).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from functools import lru_cache

from ratings.systems.model import (
    JSON,
    BadInput,
    EventInput,
    EventOutput,
    Game,
    GameOutput,
    PlayerOutput,
    RatingSystem,
)

# --- Published constants (Part A / Part B) -----------------------------------

DEFAULT_PARAMS: dict[str, JSON] = {
    "start": 1600,
    "floor": 100,
    "crossing": True,
    "min_change": 1,
}
MIN_CHANGE_LIMITS = (0, 16)  # Part D: integer 0-16, so |d| never exceeds K (U4, U6)
PARAM_RATING_LIMIT = 1_000_000  # `start` and `floor` are ratings: same bound as io puts on ratings

# Lower bound of each category and its K; categories are half-open (U3).
CATEGORY_BOUNDS = (2100, 2400)
K_BY_CATEGORY = (32, 24, 16)
_CATEGORY_1_FROM, _CATEGORY_2_FROM = CATEGORY_BOUNDS

# Crossing adjustments (Part B step 5, U5): (from, to) -> (pivot, factor), exact decimals.
CROSSING = {
    (0, 1): (2100, Fraction("0.75")),
    (1, 0): (2100, Fraction("1.33")),
    (1, 2): (2400, Fraction("0.66")),
    (2, 1): (2400, Fraction("1.50")),
}

NOTE = (
    "games are rated one at a time in (round, input) order; per-game 'change' is the rating "
    "after that game minus the rating before it (crossing adjustment and floor included)"
)

# Beyond this |dr| the expectation is below 1e-500: it prints as 0.0 / 1.0 and cannot
# change any rounding, so the power (which would overflow) is skipped.
_NEGLIGIBLE_DR = 200_000
_EXPECTATION_CONTEXT = Context(prec=50)
_SCORES = {"win": Decimal(1), "draw": Decimal("0.5"), "loss": Decimal(0)}

Rating = int | Fraction


@dataclass(frozen=True, slots=True)
class _Params:
    start: float
    floor: int
    crossing: bool
    min_change: int


# --- Formulas -----------------------------------------------------------------


def category(rating: float | Fraction) -> int:
    """Category 0, 1 or 2 of a rating: < 2100, 2100-2399, >= 2400 (Part B, U3)."""
    if rating < _CATEGORY_1_FROM:
        return 0
    return 1 if rating < _CATEGORY_2_FROM else 2


def k_factor(rating: float | Fraction) -> int:
    """K from the category of the rating just before the game (Part B step 1, U3)."""
    return K_BY_CATEGORY[category(rating)]


@lru_cache(maxsize=65_536)
def expectation(dr: Rating) -> Decimal:
    """We = 1/(10^(dr/400) + 1), dr = opponent - own, to 50 digits (Part B step 2, U1)."""
    if dr > _NEGLIGIBLE_DR:
        return Decimal(0)
    if dr < -_NEGLIGIBLE_DR:
        return Decimal(1)
    ctx = _EXPECTATION_CONTEXT
    exponent = ctx.divide(_to_decimal(dr), Decimal(400))
    return ctx.divide(Decimal(1), ctx.add(ctx.power(Decimal(10), exponent), Decimal(1)))


def points(k: int, score: Decimal, we: Decimal, min_change: int) -> int:
    """d = round(K(W - We)), at least `min_change` in size for a decisive game (step 3, U4)."""
    d = int((k * (score - we)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    if score == _SCORES["win"] and d < min_change:
        return min_change
    if score == _SCORES["loss"] and d > -min_change:
        return -min_change
    return d


def crossing_adjustment(old: Rating, new: Rating) -> Rating:
    """Ra for a game that moves a player into another category, else Rn (step 5, U5)."""
    before, after = category(old), category(new)
    if before == after:  # the usual case: no crossing
        return new
    row = CROSSING.get((before, after))
    if row is None:
        return new
    pivot, factor = row
    return pivot + (new - pivot) * factor


def round_half_away(x: Rating) -> int:
    """Exact round half away from zero (Part B, U7): 2395.5 -> 2396, -2.5 -> -3."""
    if isinstance(x, int):
        return x
    exact = Fraction(x)
    magnitude = (2 * abs(exact.numerator) + exact.denominator) // (2 * exact.denominator)
    return magnitude if exact >= 0 else -magnitude


def rating_after_game(old: Rating, d: int, params: _Params) -> int:
    """Rn = Ro + d, crossing adjustment, one rounding, then the floor (steps 4-6, U7, U8)."""
    new: Rating = old + d
    if params.crossing:
        new = crossing_adjustment(old, new)
    return max(round_half_away(new), floor_for(old, params.floor))


def floor_for(old: Rating, floor: int) -> int:
    """The least rating a game may leave: ``min(Ro, floor)`` (U8). The floor never lifts
    a rating, so one that arrives below it (imported) only never falls further.

    An imported non-integer rating below the floor is taken down to a whole number:
    ratings are integers after every game (U7), and rounding it up would let a loss
    raise it (90.5 that loses becomes 90, not 91).
    """
    return floor if old >= floor else math.floor(old)


# --- Driver -------------------------------------------------------------------


def rate(event: EventInput) -> EventOutput:
    """Rate one event game by game, in (round, input position) order (U2)."""
    params = _read_params(event.params)
    before: dict[str, float] = {}
    for index, player in enumerate(event.players):
        before[player.id] = _starting_rating(player.rating, index, params)
    current: dict[str, Rating] = {pid: _exact(rating) for pid, rating in before.items()}
    games: dict[str, list[GameOutput]] = {pid: [] for pid in before}

    # A stable sort by round keeps input order within a round.
    for index, game in sorted(enumerate(event.games), key=lambda pair: pair[1].round):
        _check_game(game, index, current)
        white, black = game.white, game.black
        white_old, black_old = current[white], current[black]
        (white_score, white_points), (black_score, black_points) = _SIDES[game.result]
        # Both sides are computed from the ratings before the game (U2).
        white_we, white_new = _play(white_old, black_old, white_score, params)
        black_we, black_new = _play(black_old, white_old, black_score, params)
        current[white], current[black] = white_new, black_new
        # Per-game lines (U11): We at full precision, change including crossing and floor.
        games[white].append(
            GameOutput(game.round, black, white_points, white_we, _plain(white_new - white_old))
        )
        games[black].append(
            GameOutput(game.round, white, black_points, black_we, _plain(black_new - black_old))
        )

    players = tuple(_player_output(pid, before[pid], current[pid], games[pid]) for pid in before)
    return EventOutput(system=SYSTEM.code, event=event.event.id, players=players, notes=(NOTE,))


def _play(own: Rating, opponent: Rating, score: str, params: _Params) -> tuple[float, int]:
    """One player's side of a game: (We as reported, rating after the game)."""
    we, d = _expectation_and_points(opponent - own, k_factor(own), score, params.min_change)
    return we, rating_after_game(own, d, params)


@lru_cache(maxsize=65_536)
def _expectation_and_points(dr: Rating, k: int, score: str, min_change: int) -> tuple[float, int]:
    """(We as the nearest double, d); memoised because whole-number dr values repeat a lot."""
    we = expectation(dr)
    return float(we), points(k, _SCORES[score], we, min_change)


def _read_params(given: Mapping[str, JSON]) -> _Params:
    """Validate the `params` overrides (Part D)."""
    for name in given:
        if name not in DEFAULT_PARAMS:
            raise BadInput(f"params.{name}", "unknown parameter for uscf")
    merged = {**DEFAULT_PARAMS, **given}
    start = _rating_param(merged["start"], "start")
    floor = _rating_param(merged["floor"], "floor")
    if not float(floor).is_integer():
        raise BadInput("params.floor", "must be a whole number")
    crossing = merged["crossing"]
    if not isinstance(crossing, bool):
        raise BadInput("params.crossing", "must be true or false")
    min_change = merged["min_change"]
    low, high = MIN_CHANGE_LIMITS
    if isinstance(min_change, bool) or not isinstance(min_change, int):
        raise BadInput("params.min_change", "must be an integer")
    if not low <= min_change <= high:
        raise BadInput("params.min_change", f"must be between {low} and {high}")
    return _Params(start, int(floor), crossing, min_change)


def _rating_param(value: JSON, name: str) -> float:
    """A rating-valued parameter: a finite number no larger than any rating the contract takes."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadInput(f"params.{name}", "must be a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise BadInput(f"params.{name}", "must be finite")
    if abs(value) > PARAM_RATING_LIMIT:
        raise BadInput(f"params.{name}", f"out of range (at most {PARAM_RATING_LIMIT} in size)")
    return value


def _starting_rating(rating: float | None, index: int, params: _Params) -> float:
    """Input rating, or `start` for a newcomer (U9); integral values stay ints."""
    if rating is None:
        value: float = params.start
    elif isinstance(rating, bool) or not isinstance(rating, int | float):
        raise BadInput(f"players[{index}].rating", "must be a number or null")
    elif not math.isfinite(rating):
        raise BadInput(f"players[{index}].rating", "must be finite")
    else:
        value = rating
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _exact(rating: float) -> Rating:
    return rating if isinstance(rating, int) else Fraction(rating)


def _to_decimal(x: Rating) -> Decimal:
    if isinstance(x, int):
        return Decimal(x)
    # The denominator is a power of two, so this quotient is exact at this precision.
    exact = Context(prec=2000)
    return exact.divide(Decimal(x.numerator), Decimal(x.denominator))


def _check_game(game: Game, index: int, current: Mapping[str, Rating]) -> None:
    """The core validates games; this keeps direct callers to BadInput as well."""
    if game.white not in current:
        raise BadInput(f"games[{index}].white", f"unknown player id {game.white!r}")
    if game.black not in current:
        raise BadInput(f"games[{index}].black", f"unknown player id {game.black!r}")
    if game.white == game.black:
        raise BadInput(f"games[{index}]", "a player cannot play himself")
    if game.result not in ("white", "black", "draw"):
        raise BadInput(f"games[{index}].result", "must be white, black or draw")
    if game.handicap < 0:
        raise BadInput(f"games[{index}].handicap", "must not be negative")


# result -> ((White's score name, his score as output), (Black's, his)).
_SIDES: dict[str, tuple[tuple[str, int | float], tuple[str, int | float]]] = {
    "white": (("win", 1), ("loss", 0)),
    "black": (("loss", 0), ("win", 1)),
    "draw": (("draw", 0.5), ("draw", 0.5)),
}


def _player_output(pid: str, before: float, after: Rating, games: list[GameOutput]) -> PlayerOutput:
    """Part D: ratings are always rated, never provisional or anomalous; no history (U9, U10)."""
    after_value = _plain(after)
    return PlayerOutput(
        id=pid,
        before=before,
        after=after_value,
        change=_plain(_exact(after_value) - _exact(before)),
        rated=True,
        provisional=False,
        anomalous=False,
        history=None,
        games=tuple(games),
    )


def _plain(x: Rating) -> float:
    """An exact value as JSON wants it: int when whole, else the nearest float."""
    if isinstance(x, int):
        return x
    return int(x) if x.denominator == 1 else float(x)


SYSTEM = RatingSystem(
    code="uscf",
    title="Reversi (games Zone), USCF-style Elo",
    params=DEFAULT_PARAMS,
    rate=rate,
    needs_grade=False,
    several_games_per_round=True,  # U2: a batch of Zone games
)
