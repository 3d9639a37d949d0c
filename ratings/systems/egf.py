"""`egf`: the European Go Federation GoR system (epsilon = 0.016), as in `spec/egf.md`.

Every game of a tournament is computed from the pre-tournament ratings; a
player's change is the class-weighted sum of his games' changes, cut at
-`max_drop`, kept above `floor`, and stored to 3 decimals.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter

from ratings.systems.grades import ALL_GRADES, Grade
from ratings.systems.model import (
    JSON,
    BadInput,
    EventInput,
    EventOutput,
    Game,
    GameRecord,
    Player,
    RatingSystem,
    game_outputs,
    rated_player,
)
from ratings.systems.numeric import round_half_away
from ratings.systems.output import event_json, games_json, player_json

# --- Published constants (egf.md §1-§5) -------------------------------------------------

EPSILON = 0.016
CLASS_WEIGHTS: dict[str, float] = {"A": 1.0, "B": 0.75, "C": 0.5}
MAX_DROP = 100.0
FLOOR = 100.0
STORED_DECIMALS = 3
EXPONENT_LIMIT = 700.0  # e^x overflows a double near x = 709

# Table II: GoR -> con. Outside the table the end values hold (116 below 100, 10 above 2700).
CON_TABLE: tuple[tuple[float, float], ...] = (
    (100, 116), (200, 110), (300, 105), (400, 100), (500, 95), (600, 90), (700, 85),
    (800, 80), (900, 75), (1000, 70), (1100, 65), (1200, 60), (1300, 55), (1400, 51),
    (1500, 47), (1600, 43), (1700, 39), (1800, 35), (1900, 31), (2000, 27), (2100, 24),
    (2200, 21), (2300, 18), (2400, 15), (2500, 13), (2600, 11), (2700, 10),
)  # fmt: skip
# Table II: GoR -> a (exactly 205 - GoR/20 between the ends; 200 below 100, 70 above 2700).
A_TABLE: tuple[tuple[float, float], ...] = tuple((gor, 205 - gor / 20) for gor, _ in CON_TABLE)

# The grade scale (§1).
WEAKEST_RATED_KYU = 20  # 21k-30k share 20k's value, the bottom of the scale
PRO_START = 2700.0  # 1p
PRO_STEP = 30.0
RESET_AMATEUR_GRADES = 2
RESET_PRO_GRADES = 1
RESET_MIXED_GOR = 200.0  # amateur -> professional: counted on the GoR scale

DEFAULT_PARAMS: dict[str, JSON] = {
    "epsilon": EPSILON,
    "class_weights": dict(CLASS_WEIGHTS),
    "max_drop": MAX_DROP,
    "floor": FLOOR,
}

# --- Grades and the rating scale (§1) ------------------------------------------------------


def grade_to_gor(grade: Grade) -> float:
    """GoR value of a grade (egf.md §1): start of a newcomer and value of a reset."""
    if grade.kind == "k":
        return 2100.0 - 100.0 * min(grade.level, WEAKEST_RATED_KYU)
    if grade.kind == "d":
        return 2000.0 + 100.0 * grade.level
    return PRO_START + PRO_STEP * (grade.level - 1)


_DISPLAY_GRADES = tuple(
    g for g in ALL_GRADES if not (g.kind == "k" and g.level > WEAKEST_RATED_KYU)
)


def rating_to_grade(rating: float, *, professional: bool = True) -> Grade:
    """Grade shown for a rating (egf.md §1): the nearest grade value, ties to the stronger.

    With ``professional=False`` only amateur grades (20k-9d) are candidates.
    """
    best: Grade | None = None
    best_distance = math.inf
    for grade in _DISPLAY_GRADES:  # weakest first, so `<=` lets a tie go to the stronger
        if grade.kind == "p" and not professional:
            continue
        distance = abs(grade_to_gor(grade) - rating)
        if distance <= best_distance:
            best, best_distance = grade, distance
    assert best is not None
    return best


# --- Formulas (§2-§4) ----------------------------------------------------------------------


def _segments(
    table: tuple[tuple[float, float], ...],
) -> tuple[tuple[float, float, float, float], ...]:
    return tuple(
        (x0, y0, y1 - y0, x1 - x0) for (x0, y0), (x1, y1) in zip(table, table[1:], strict=False)
    )


_CON_SEGMENTS = _segments(CON_TABLE)
_A_SEGMENTS = _segments(A_TABLE)
_TABLE_LOW, _TABLE_HIGH, _TABLE_STEP = CON_TABLE[0][0], CON_TABLE[-1][0], 100.0


def _table_value(
    table: tuple[tuple[float, float], ...],
    segments: tuple[tuple[float, float, float, float], ...],
    x: float,
) -> float:
    """`numeric.interpolate(table, x)` with the same arithmetic, the segment found by index.

    Table II steps by 100 GoR, so no search is needed (this runs once per game).
    """
    if x <= _TABLE_LOW:
        return table[0][1]
    if x >= _TABLE_HIGH:
        return table[-1][1]
    x0, y0, dy, dx = segments[int((x - _TABLE_LOW) // _TABLE_STEP)]
    return y0 + dy * (x - x0) / dx


def _con_and_a(rating: float) -> tuple[float, float]:
    """(`con(rating)`, `a_parameter(rating)`) at once: the two tables share their knots."""
    if rating <= _TABLE_LOW:
        return CON_TABLE[0][1], A_TABLE[0][1]
    if rating >= _TABLE_HIGH:
        return CON_TABLE[-1][1], A_TABLE[-1][1]
    segment = int((rating - _TABLE_LOW) // _TABLE_STEP)
    x0, con0, con_rise, dx = _CON_SEGMENTS[segment]
    _, a0, a_rise, _ = _A_SEGMENTS[segment]
    return con0 + con_rise * (rating - x0) / dx, a0 + a_rise * (rating - x0) / dx


def con(rating: float) -> float:
    """`con` at a player's own pre-tournament rating, Table II interpolated (egf.md §3)."""
    return _table_value(CON_TABLE, _CON_SEGMENTS, rating)


def a_parameter(rating: float) -> float:
    """`a` at the weaker side's handicap-adjusted rating, Table II (egf.md §2)."""
    return _table_value(A_TABLE, _A_SEGMENTS, rating)


def handicap_adjusted(rating: float, handicap: int) -> float:
    """Black's rating as rated with H stones: higher by 100·(H − 0.5) (egf.md §4)."""
    if handicap < 1:
        return rating
    return rating + 100.0 * (handicap - 0.5)


def expectation(own: float, opponent: float, a: float, epsilon: float) -> float:
    """SE(X) = 1/(e^((R_Y − R_X)/a) + 1) − ε/2 for either player (egf.md §2).

    Both players' SE use the same `a`; they sum to 1 − ε (eq. 2).
    """
    exponent = (opponent - own) / a
    if exponent > EXPONENT_LIMIT:  # e^700 already makes the fraction 0 in double precision
        return -epsilon / 2
    return 1 / (math.exp(exponent) + 1) - epsilon / 2


def expectations(white: float, black: float, handicap: int, epsilon: float) -> tuple[float, float]:
    """(SE of White, SE of Black) for one game (egf.md §2, §4).

    The handicap-adjusted ratings give D, and the weaker adjusted rating gives `a`.
    """
    black_adjusted = handicap_adjusted(black, handicap)
    a = a_parameter(min(white, black_adjusted))
    return (
        expectation(white, black_adjusted, a, epsilon),
        expectation(black_adjusted, white, a, epsilon),
    )


# --- Before the tournament (§6) ------------------------------------------------------------


def is_reset_promotion(grade: Grade, best_grade: Grade) -> bool:
    """Whether `grade` is far enough above `best_grade` to reset (egf.md §6).

    Two amateur grades; one professional grade when both are professional;
    otherwise (amateur <-> professional) 200 GoR on the scale of §1.
    """
    if grade.kind != "p" and best_grade.kind != "p":
        return grade.rank - best_grade.rank >= RESET_AMATEUR_GRADES
    if grade.kind == "p" and best_grade.kind == "p":
        return grade.level - best_grade.level >= RESET_PRO_GRADES
    return grade_to_gor(grade) - grade_to_gor(best_grade) >= RESET_MIXED_GOR


def starting_rating(player: Player) -> float:
    """The rating a player enters the tournament with (egf.md §6).

    A newcomer starts from his grade; a big enough promotion over `best_grade`
    raises the rating to the grade's value (never lowers it).
    """
    if player.rating is None:
        if player.grade is None:
            raise BadInput("grade", f"new player {player.id!r} needs a grade")
        return grade_to_gor(player.grade)
    rating = float(player.rating)
    grade, best_grade = player.grade, player.best_grade
    if grade is not None and best_grade is not None and is_reset_promotion(grade, best_grade):
        return max(rating, grade_to_gor(grade))
    return rating


# --- After the tournament (§5) -------------------------------------------------------------


def final_rating(before: float, weighted_change: float, max_drop: float, floor: float) -> float:
    """Cap the drop at −max_drop, keep above the floor, store to 3 decimals (egf.md §5)."""
    change = max(weighted_change, -max_drop)
    return store(max(before + change, floor))


def limit_notes(
    player_id: str, before: float, weighted_change: float, settings: Settings
) -> list[str]:
    """One line per limit of §5 that changed this player's result, cap first (egf.md §7)."""
    notes = []
    change = weighted_change
    if change < -settings.max_drop:
        notes.append(
            f"{player_id}: weighted change {change:.3f} cut to -{settings.max_drop:g} (max_drop)"
        )
        change = -settings.max_drop
    if before + change < settings.floor:
        notes.append(f"{player_id}: {before + change:.3f} raised to {settings.floor:g} (floor)")
    return notes


def store(rating: float) -> float:
    """The rating to 3 decimals, half up, as the EGD stores it (egf.md §5 step 4).

    Next to a tie the product `rating * 1000` may have rounded across it, so those
    rare cases take the exact decimal route.
    """
    scaled = rating * 1000.0
    whole = math.floor(scaled)
    if abs(scaled - whole - 0.5) > 1e-6:
        # Away from a tie the nearest thousandth is plain to find, and dividing the exact
        # integer by 1000 gives the same double as `round(rating, 3)`, several times quicker.
        return (whole if scaled - whole < 0.5 else whole + 1.0) / 1000.0
    return round_half_away(rating, STORED_DECIMALS)


# --- Parameters ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    epsilon: float
    class_weights: Mapping[str, float]
    max_drop: float
    floor: float


def _number(value: JSON, field: str, low: float, high: float = math.inf) -> float:
    if type(value) not in (int, float):
        raise BadInput(field, "must be a number")
    assert isinstance(value, int | float)
    number = float(value)
    if not (math.isfinite(number) and low <= number <= high):
        bounds = f"at least {low:g}" if high == math.inf else f"between {low:g} and {high:g}"
        raise BadInput(field, f"must be a finite number {bounds}")
    return number


def settings_from(params: Mapping[str, JSON]) -> Settings:
    """The published constants with the caller's overrides, values checked.

    `epsilon` (egf.md §2), `class_weights` (§5.1, any of A/B/C), `max_drop` (§5.2)
    and `floor` (§5.3); the core has already rejected unknown names.
    """
    epsilon = _number(params.get("epsilon", EPSILON), "params.epsilon", 0.0, 0.5)
    weights = dict(CLASS_WEIGHTS)
    given = params.get("class_weights", {})
    if not isinstance(given, dict):
        raise BadInput("params.class_weights", "must be an object like {'A': 1.0}")
    for klass in sorted(given):
        if klass not in CLASS_WEIGHTS:
            raise BadInput(f"params.class_weights.{klass}", "unknown class (A, B or C)")
        weights[klass] = _number(given[klass], f"params.class_weights.{klass}", 0.0, 10.0)
    max_drop = _number(params.get("max_drop", MAX_DROP), "params.max_drop", 0.0)
    floor = _number(params.get("floor", FLOOR), "params.floor", -1e6, 1e6)
    return Settings(epsilon, weights, max_drop, floor)


# --- The system ----------------------------------------------------------------------------

_SCORES = {"white": (1.0, 0.0), "black": (0.0, 1.0), "draw": (0.5, 0.5)}
_BY_ROUND = attrgetter("round")


class _Entrant:
    """One player's running state while his tournament is rated (§2-§5)."""

    __slots__ = ("id", "rating", "weighted_con", "a", "total", "after", "games")

    def __init__(self, player_id: str, rating: float, weight: float) -> None:
        con_, a = _con_and_a(rating)
        self.id = player_id
        self.rating = rating  # the starting rating of §6; every game uses it
        self.weighted_con = weight * con_  # class weight x con (§3, §5.1)
        self.a = a  # `a` when he is the weaker side of an even game (§2)
        self.total = 0.0  # the weighted change so far
        self.after = rating  # the final rating (§5), once every game is in
        self.games: list[GameRecord] = []  # his games, `GameOutput`'s fields as a plain tuple


def _play(entrants: Mapping[str, _Entrant], games: Iterable[Game], epsilon: float) -> None:
    """Rate every game from the starting ratings (§2-§4), in the order given.

    Each side's change is added to his total, and the game is written to his
    list as a plain (round, opponent, score, expected, change) tuple.
    """
    half_epsilon = epsilon / 2
    exp, limit = math.exp, EXPONENT_LIMIT
    for round_number, white_id, black_id, result, handicap in games:
        white, black = entrants[white_id], entrants[black_id]
        r_white, r_black = white.rating, black.rating
        # `expectations` inlined (it runs once per game); the two must give identical floats.
        if handicap >= 1:
            r_black = r_black + 100.0 * (handicap - 0.5)
            a = a_parameter(r_white if r_white <= r_black else r_black)
        else:
            a = white.a if r_white <= r_black else black.a
        x = (r_black - r_white) / a
        if -limit <= x <= limit:
            se_white = 1 / (exp(x) + 1) - half_epsilon
            se_black = 1 / (exp(-x) + 1) - half_epsilon
        else:
            se_white, se_black = expectations(white.rating, black.rating, handicap, epsilon)
        score_white, score_black = _SCORES[result]
        change_white = white.weighted_con * (score_white - se_white)
        change_black = black.weighted_con * (score_black - se_black)
        white.total += change_white
        black.total += change_black
        white.games.append((round_number, black_id, score_white, se_white, change_white))
        black.games.append((round_number, white_id, score_black, se_black, change_black))


def _rate(event: EventInput) -> tuple[list[_Entrant], list[str]]:
    """The players' final states, in input order, and the notes (egf.md §2-§7)."""
    settings = settings_from(event.params)
    weight = settings.class_weights[event.event.klass]
    entrants: dict[str, _Entrant] = {}
    for index, player in enumerate(event.players):
        if player.rating is None and player.grade is None:
            raise BadInput(f"players[{index}].grade", "a new player needs a grade")
        entrants[player.id] = _Entrant(player.id, starting_rating(player), weight)

    # Round order makes every player's list (and so his sum) independent of the listing order.
    _play(entrants, sorted(event.games, key=_BY_ROUND), settings.epsilon)

    finished = [entrants[player.id] for player in event.players]
    notes: list[str] = []
    max_drop, floor = settings.max_drop, settings.floor
    for entrant in finished:
        before, total = entrant.rating, entrant.total
        entrant.after = final_rating(before, total, max_drop, floor)
        if total < -max_drop or before + total < floor:  # a limit of §5 bit: say which
            notes.extend(limit_notes(entrant.id, before, total, settings))
    return finished, notes


def rate(event: EventInput) -> EventOutput:
    """Rate one tournament (egf.md §2-§7): all games from the pre-tournament ratings."""
    entrants, notes = _rate(event)
    players = tuple(rated_player(e.id, e.rating, e.after, game_outputs(e.games)) for e in entrants)
    return EventOutput(system="egf", event=event.event.id, players=players, notes=tuple(notes))


def rate_json(event: EventInput) -> dict[str, JSON]:
    """`output_to_json(rate(event))`, written straight from the players' states."""
    entrants, notes = _rate(event)
    players: list[JSON] = [
        player_json(e.id, e.rating, e.after, e.after - e.rating, games=games_json(e.games))
        for e in entrants
    ]
    return event_json("egf", event.event.id, players, notes)


SYSTEM = RatingSystem(
    code="egf",
    title="European Go Federation GoR (epsilon = 0.016, EGD 1998-2021)",
    params=DEFAULT_PARAMS,
    rate=rate,
    rate_json=rate_json,
    needs_grade=True,
)
