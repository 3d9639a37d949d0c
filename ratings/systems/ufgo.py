"""The UFGO rating system (`ufgo`): `shared/spec/ufgo.md`, Part B.

Round by round, formula (1) ``R = K2·(Rп − K1) + K3`` with the lookup tables
2 and 3, the fixed-point rules for IKs under 100 (section 5, tables 4 and 5),
and the anomaly rules (4.4-4.7, 5.4) that restart the whole event from raised
start ratings until nobody is anomalous. All arithmetic is exact (B2): inside a
calculation ratings are integers in a common unit (a tenth, or finer when a start
rating has more decimals), elsewhere `Fraction`s. The grade rules (section 2, 1.7)
live in `ufgo_grades`.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ratings.systems.model import (
    JSON,
    BadInput,
    EventInput,
    EventOutput,
    GameOutput,
    Player,
    PlayerOutput,
    RatingSystem,
)
from ratings.systems.ufgo_grades import t1_start

# Table 2 (4.2): (upper end of the integer R12 band, K1 of the lower-rated player
# in hundredths); the higher-rated player gets 1 − K1. Beyond 735: 0 and 1.
TABLE2: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 49), (17, 48), (25, 47), (32, 46), (39, 45), (46, 44), (53, 43), (61, 42),
    (68, 41), (76, 40), (83, 39), (91, 38), (98, 37), (106, 36), (113, 35), (121, 34),
    (129, 33), (137, 32), (145, 31), (153, 30), (162, 29), (170, 28), (179, 27), (188, 26),
    (197, 25), (206, 24), (215, 23), (225, 22), (235, 21), (245, 20), (256, 19), (267, 18),
    (278, 17), (290, 16), (302, 15), (315, 14), (328, 13), (344, 12), (357, 11), (374, 10),
    (391, 9), (411, 8), (432, 7), (456, 6), (484, 5), (517, 4), (559, 3), (619, 2), (735, 1),
)  # fmt: skip

# Table 3 (4.2, 4.5): (IK below which the row applies, K2, K3); rows are
# lower-inclusive (D7): "< 600", "600 – 1099", ..., "> 2000" with 2000 included.
TABLE3: tuple[tuple[int | None, int, int], ...] = (
    (600, 60, 20),
    (1100, 50, 10),
    (1400, 40, 5),
    (1700, 30, 2),
    (2000, 20, 1),
    (None, 10, 0),
)

# Table 4 (5.2): the player at or above 100 against one below 100.
# (IK from, ((win, loss, k3) on 9x9, on 13x13, on 19x19)), rows lower-inclusive (D7).
Table4Cell = tuple[int, int, int]
TABLE4: tuple[tuple[int, tuple[Table4Cell, Table4Cell, Table4Cell]], ...] = (
    (100, ((7, -13, 7), (10, -20, 10), (20, -40, 20))),
    (200, ((3, -17, 7), (5, -25, 10), (10, -50, 20))),
    (400, ((0, -20, 7), (0, -30, 10), (0, -60, 20))),
    (600, ((0, -20, 0), (0, -30, 0), (0, -60, 0))),  # 9x9 loss printed as 0: a misprint (D8)
)

# Table 5 (5.3): extra points for a win of a player below 100, by the opponent's IK
# (IK from, (9x9, 13x13, 19x19)).
TABLE5: tuple[tuple[int, tuple[int, int, int]], ...] = (
    (100, (1, 2, 3)),
    (200, (2, 3, 5)),
    (400, (3, 4, 7)),  # "> 400", 400 included (D7)
)

BOARD_COLUMN = {9: 0, 13: 1, 19: 2}
WIN_BELOW_100 = {9: 2, 13: 3, 19: 5}  # 5.1
LOSS_BELOW_100 = 1  # 5.1: "+1 point whatever the board"
EXTRA_POINTS_LIMIT = {9: 4, 13: 6, 19: 9}  # 5.4
BOUNDARY = 100  # section 5
BOUNDARY_RATIO = 10  # 5.5: one point below 100 = ten points at or above 100

DEFAULT_PARAMS: dict[str, JSON] = {
    "k3": None,
    "k3_cap_low": 100,
    "k3_cap_high": 50,
    "k3_cap_threshold": 600,
    "anomaly_factor": 0.45,
    "divisor_13": 2,
    "divisor_9": 3,
    "max_recalculations": 1000,
}

ZERO = Fraction(0)
Exact = int | Fraction  # ints where possible: they are much cheaper than Fractions
_T3_BOUNDS = tuple(row[0] for row in TABLE3 if row[0] is not None)
_T4_BOUNDS = tuple(row[0] for row in TABLE4)
_T5_BOUNDS = tuple(row[0] for row in TABLE5)
# Table 2 unrolled: K1 (hundredths) of the lower-rated player by ceil(|R12|), 0 ... 735.
_K1_LOWER_BY_DIFF: tuple[int, ...] = tuple(
    next(k for upper, k in TABLE2 if upper >= diff) for diff in range(TABLE2[-1][0] + 1)
)


# --- Numbers and tables (B2, B3) ------------------------------------------------------------


def exact(number: float) -> Fraction:
    """An input number as the exact decimal it is written as (B2)."""
    if isinstance(number, int):
        return Fraction(number)
    return Fraction(repr(number))


def round1(x: Fraction) -> Fraction:
    """Round half up (towards +inf) to 0.1: ``floor(10x + 1/2) / 10`` (B2, 4.9)."""
    return Fraction((20 * x.numerator + x.denominator) // (2 * x.denominator), 10)


def round_integer(x: Fraction) -> int:
    """Round half up (towards +inf) to an integer: ``floor(x + 1/2)`` (B2, 4.9)."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def k1_hundredths(x_units: int, y_units: int, unit: int) -> int:
    """100·K1 for the player rated ``x_units/unit`` against one rated ``y_units/unit``
    (4.2, Table 2, B3, D6).

    The band is the one of ``ceil(|x − y|)``; its "K1 < 0.5" value goes to the
    lower-rated player, one minus it to the higher-rated one (0.5 each when equal).
    """
    diff = -(-abs(x_units - y_units) // unit)  # ceil(|x − y|)
    lower = _K1_LOWER_BY_DIFF[diff] if diff < len(_K1_LOWER_BY_DIFF) else 0
    return lower if x_units < y_units else 100 - lower


def k1(x: Fraction, y: Fraction) -> Fraction:
    """K1 of formula (1) for the player rated `x` against one rated `y` (Table 2, D6)."""
    unit = math.lcm(x.denominator, y.denominator)
    return Fraction(k1_hundredths(int(x * unit), int(y * unit), unit), 100)


def t3(x: Exact) -> tuple[int, int]:
    """(K2, K3) from Table 3 for the IK `x` (or its floor) of the player being rated (D7)."""
    _, k2, k3 = TABLE3[bisect.bisect_right(_T3_BOUNDS, x)]
    return k2, k3


def t4(x: Exact, board: int) -> tuple[int, int, int]:
    """(r for a win, r for a loss, k3) from Table 4 for a player rated `x` >= 100 (5.2, D7, D8)."""
    row = TABLE4[max(bisect.bisect_right(_T4_BOUNDS, x) - 1, 0)]
    return row[1][BOARD_COLUMN[board]]


def t5(y: Exact, board: int) -> int:
    """Table 5 extra points for beating an opponent rated `y` >= 100 (5.3, D7)."""
    row = TABLE5[max(bisect.bisect_right(_T5_BOUNDS, y) - 1, 0)]
    return row[1][BOARD_COLUMN[board]]


def _move(units: int, unit: int, num: int, den: int, low: bool) -> tuple[int, int]:
    """``move(r, Δ, low)`` of B5 step 3 for ``r = units/unit`` and ``Δ = num/den``, as a
    (numerator, denominator) pair, unrounded (5.5, D13).

    `low`: Δ is in points below 100 (the player started the round below 100).
    The part of the move on the other side of 100 converts at 1 : 10. Plain
    integers, not Fractions: this runs for every player in every game.
    """
    below = units < BOUNDARY * unit
    if low == below:  # Δ is in the units of where he stands
        value_num, value_den = units * den + num * unit, unit * den
    elif low:  # already moved above 100 earlier in this round (D4): a low point is worth ten
        value_num, value_den = units * den + BOUNDARY_RATIO * num * unit, unit * den
    else:  # already moved below 100 earlier in this round (D4): a point is worth a tenth
        value_num = BOUNDARY_RATIO * units * den + num * unit
        value_den = BOUNDARY_RATIO * unit * den
    excess = value_num - BOUNDARY * value_den  # (value − 100)·value_den
    if below and excess >= 0:  # up across 100: what lies above counts tenfold
        value_num += (BOUNDARY_RATIO - 1) * excess
    elif not below and excess < 0:  # down across 100: what lies below counts a tenth
        value_num = BOUNDARY * BOUNDARY_RATIO * value_den + excess
        value_den *= BOUNDARY_RATIO
    return value_num, value_den


def advance(units: int, unit: int, num: int, den: int, low: bool) -> int:
    """B5 step 3 ``round1(move(r, Δ, low))`` for ``r = units/unit`` and ``Δ = num/den``,
    returned in tenths (5.5, 4.9, D12, D13): a player's only game of a round."""
    value_num, value_den = _move(units, unit, num, den, low)
    return (20 * value_num + value_den) // (2 * value_den)  # round1, in tenths


def move(rating: Fraction, delta: Fraction, low: bool) -> Fraction:
    """``move(rating, delta, low)`` on Fractions, unrounded (B5 step 3, 5.5, D13): the
    running value of a player with several games in one round (D4)."""
    value_num, value_den = _move(
        rating.numerator, rating.denominator, delta.numerator, delta.denominator, low
    )
    return Fraction(value_num, value_den)


def step(rating: Fraction, delta: Fraction, low: bool) -> Fraction:
    """``round1(move(rating, delta, low))`` on Fractions (B5 step 3); see `advance`."""
    unit = rating.denominator
    tenths = advance(rating.numerator, unit, delta.numerator, delta.denominator, low)
    return Fraction(tenths, 10)


def start_rating(player: Player) -> Fraction:
    """B4, D2: the input rating; a newcomer starts at his grade's Table 1 lower
    bound, or at 0 (30 kyu, 3.1) without a grade."""
    if player.rating is not None:
        return exact(player.rating)
    if player.grade is None:
        return ZERO
    return Fraction(t1_start(player.grade))


# --- Parameters (B8) -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything one event's calculation needs besides ratings: params, board, K3 on/off."""

    board: int
    k3_on: bool
    k3_forced: bool
    k3_cap_low: Exact
    k3_cap_high: Exact
    k3_cap_threshold: Fraction
    anomaly_factor: Fraction
    divisor: Fraction
    max_recalculations: int
    divisor_num: int = 1  # the divisor's numerator and denominator, for the per-game
    divisor_den: int = 1  # integer arithmetic (set from `divisor` below)

    def __post_init__(self) -> None:
        object.__setattr__(self, "divisor_num", self.divisor.numerator)
        object.__setattr__(self, "divisor_den", self.divisor.denominator)


def _positive(params: Mapping[str, JSON], name: str) -> Fraction:
    value = params.get(name, DEFAULT_PARAMS[name])
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadInput(f"params.{name}", "must be a positive number")
    number = exact(value)
    if number <= 0:
        raise BadInput(f"params.{name}", "must be a positive number")
    return number


def _simplest(x: Fraction) -> Exact:
    return x.numerator if x.denominator == 1 else x


def make_rules(params: Mapping[str, JSON], board: int, official: bool) -> Rules:
    """Validate the params values (B8) and fix the event's rules (B5 `K3on`, 4.8 divisor)."""
    for name in params:
        if name not in DEFAULT_PARAMS:
            raise BadInput(f"params.{name}", "unknown parameter")
    k3 = params.get("k3")
    if k3 is not None and type(k3) is not bool:
        raise BadInput("params.k3", "must be true, false or null")
    limit = params.get("max_recalculations", DEFAULT_PARAMS["max_recalculations"])
    if type(limit) is float and limit.is_integer():
        limit = int(limit)
    if type(limit) is not int or limit < 0:
        raise BadInput("params.max_recalculations", "must be a non-negative integer")
    divisors = {
        19: Fraction(1),
        13: _positive(params, "divisor_13"),
        9: _positive(params, "divisor_9"),
    }
    return Rules(
        board=board,
        k3_on=official if k3 is None else k3,
        k3_forced=k3 is not None,
        k3_cap_low=_simplest(_positive(params, "k3_cap_low")),
        k3_cap_high=_simplest(_positive(params, "k3_cap_high")),
        k3_cap_threshold=_positive(params, "k3_cap_threshold"),
        anomaly_factor=_positive(params, "anomaly_factor"),
        divisor=divisors[board],
        max_recalculations=limit,
    )


# --- One calculation (B5) ------------------------------------------------------------------

# A game as the calculation sees it: (white index, black index, white's score in halves).
# Scores are kept in halves (2 win, 1 draw, 0 loss) so that the tables stay integer.
Pairing = tuple[int, int, int]
# A game as one player saw it:
# (round, opponent index, score in halves, 100·K1 or None, change in the calculation's units).
GameRecord = tuple[int, int, int, int | None, int]


class _Player:
    """Mutable running state of one player during a calculation."""

    __slots__ = ("units", "k3_left", "k3_formula1", "k3_table4", "k2_sum", "extra_halves", "games")

    def __init__(self, start: Fraction, unit: int, rules: Rules) -> None:
        self.units = start.numerator * (unit // start.denominator)  # the rating, in 1/unit
        # 4.3, D10: the cap is chosen by the start IK of the calculation.
        low_start = start < rules.k3_cap_threshold
        self.k3_left: Exact = rules.k3_cap_low if low_start else rules.k3_cap_high
        self.k3_formula1: Exact = 0
        self.k3_table4: Exact = 0
        self.k2_sum = 0
        self.extra_halves = 0
        self.games: list[GameRecord] = []

    def take_k3(self, rules: Rules, value: int) -> Exact:
        """4.3, D10: credit K3 up to what is left of this tournament's cap."""
        if not rules.k3_on or value == 0:
            return 0
        taken = value if value <= self.k3_left else max(self.k3_left, 0)
        self.k3_left -= taken
        return taken


@dataclass(frozen=True, slots=True)
class Calculation:
    """The outcome of one pass over the event from the start ratings `starts` (B5).

    Ratings ran as integers in units of ``1/unit`` (`unit`: 10 and every start's
    denominator), which keeps them exact without Fraction arithmetic; the
    accessors below give exact values.
    """

    rules: Rules
    starts: tuple[Fraction, ...]
    unit: int
    players: tuple[_Player, ...]

    def games(self, p: int) -> list[GameRecord]:
        return self.players[p].games

    def start_units(self, p: int) -> int:
        start = self.starts[p]
        return start.numerator * (self.unit // start.denominator)

    def after_units(self, p: int) -> int:
        """`after` in units: the final IK rounded half up to an integer (4.9), or the
        start for a player without games (D12)."""
        state, unit = self.players[p], self.unit
        if not state.games:
            return state.units
        return (2 * state.units + unit) // (2 * unit) * unit

    def after(self, p: int) -> Fraction:
        return Fraction(self.after_units(p), self.unit)

    def anomaly_limit(self, p: int) -> Fraction:
        """Formula (2) ``RA = 0.45·ΣK2 + K3``, divided by the board divisor except for
        Table 4's k3, which enters undivided (4.5, 4.8, D9, D10)."""
        state, rules = self.players[p], self.rules
        from_formula = rules.anomaly_factor * state.k2_sum + state.k3_formula1
        return from_formula / rules.divisor + state.k3_table4

    def extra_points(self, p: int) -> Fraction:
        """Table 5 points received while below 100 (5.3, 5.4)."""
        return Fraction(self.players[p].extra_halves, 2)

    def change(self, record: GameRecord) -> Fraction:
        """The exact rating change of one game record."""
        return Fraction(record[4], self.unit)


def _ratio(numerator: Exact, denominator: int) -> tuple[int, int]:
    """``numerator/denominator`` as two ints (the numerator is a Fraction only when a
    K3 cap is fractional)."""
    if isinstance(numerator, int):
        return numerator, denominator
    return numerator.numerator, numerator.denominator * denominator


def _game_change(
    rules: Rules, me: _Player, x: int, y: int, unit: int, s2: int
) -> tuple[int, int, int | None]:
    """The change of one game as ``(num, den)`` in the units of the player's region, and
    100·K1 or None (B5 step 2, D5). `x`, `y`: round-start ratings in ``1/unit``;
    `s2`: the score in halves."""
    x_floor, y_floor = x // unit, y // unit  # every band of tables 3-5 has integer bounds
    k2, k3 = t3(x_floor)
    me.k2_sum += k2
    if x_floor >= BOUNDARY and y_floor >= BOUNDARY:  # formula (1), 4.8
        expected = k1_hundredths(x, y, unit)
        taken = me.take_k3(rules, k3)
        me.k3_formula1 += taken
        # 100·(K2·(Rп − K1) + K3) with Rп = s2/2, then divided by 100 and the divisor
        num, den = _ratio(k2 * (50 * s2 - expected) + 100 * taken, 100)
        return num * rules.divisor_den, den * rules.divisor_num, expected
    if x_floor >= BOUNDARY:  # 5.2, Table 4: per board already, not divided
        win, loss, table_k3 = t4(x_floor, rules.board)
        taken = me.take_k3(rules, table_k3)
        me.k3_table4 += taken
        num, den = _ratio(win * s2 + loss * (2 - s2) + 2 * taken, 2)
        return num, den, None
    change2 = WIN_BELOW_100[rules.board] * s2 + LOSS_BELOW_100 * (2 - s2)  # 5.1, in halves
    if y_floor >= BOUNDARY:  # 5.3, Table 5 (half for a draw, D11)
        extra2 = t5(y_floor, rules.board) * s2
        me.extra_halves += extra2
        change2 += extra2
    return change2, 2, None


def calculate(
    starts: Sequence[Fraction], rounds: Sequence[tuple[int, Sequence[Pairing]]], rules: Rules
) -> Calculation:
    """One calculation of the whole event from `starts` (B5).

    Every coefficient of a round comes from the round-start ratings (D3, D5);
    the changes are applied game by game in input order, white then black, after
    the 100-boundary conversion (D13). The IK is rounded to 0.1 once per round
    (4.9, D12): for a player with several games in the round (D4) the running
    value stays unrounded until his last one.
    """
    unit = math.lcm(10, *(start.denominator for start in starts))
    tenth = unit // 10
    players = [_Player(start, unit, rules) for start in starts]
    for round_number, pairings in rounds:
        at_start = [p.units for p in players]
        several = _players_with_several_games(pairings)
        running: dict[int, Fraction] = {}  # D4: unrounded value of a player of `several`
        for white, black, white_s2 in pairings:
            for me, opponent, s2 in ((white, black, white_s2), (black, white, 2 - white_s2)):
                state = players[me]
                x = at_start[me]
                num, den, expected = _game_change(rules, state, x, at_start[opponent], unit, s2)
                shown = state.units  # what his previous game of the round reported
                low = x < BOUNDARY * unit
                if me in several:
                    value = move(running.get(me, Fraction(shown, unit)), Fraction(num, den), low)
                    running[me] = value
                    state.units = round_integer(10 * value) * tenth
                else:
                    state.units = advance(shown, unit, num, den, low) * tenth
                state.games.append((round_number, opponent, s2, expected, state.units - shown))
    return Calculation(rules, tuple(starts), unit, tuple(players))


def _players_with_several_games(pairings: Sequence[Pairing]) -> frozenset[int]:
    """The players who play more than one game in this round (D4); usually none."""
    seen: set[int] = set()
    several: set[int] = set()
    for white, black, _ in pairings:
        for p in (white, black):
            if p in seen:
                several.add(p)
            seen.add(p)
    return frozenset(several)


# --- Anomalies and recalculation (B6) ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Anomaly:
    player: int
    reason: str
    new_start: Fraction


def find_anomalies(calc: Calculation) -> list[Anomaly]:
    """Players whose result in `calc` is anomalous, with their new start (4.4-4.6, 5.4,
    D14, D15): RA for every player with games (a strictly greater gain), the extra
    points rule for a start below 100; when both fire, 5.4 sets the new start."""
    found = []
    unit = calc.unit
    for p, state in enumerate(calc.players):
        if not state.games:
            continue
        start_units, after_units = calc.start_units(p), calc.after_units(p)
        below_start = start_units < BOUNDARY * unit
        if below_start and state.extra_halves >= 2 * EXTRA_POINTS_LIMIT[calc.rules.board]:
            reason = f"{_show(calc.extra_points(p))} additional points (5.4)"
            found.append(Anomaly(p, reason, max(Fraction(BOUNDARY), calc.after(p))))
            continue
        if after_units <= start_units:
            continue  # RA is never negative: only a gain can exceed it
        gain, limit = Fraction(after_units - start_units, unit), calc.anomaly_limit(p)
        if gain > limit:
            reason = f"gain {_show(gain)} > RA {_show(limit)}"
            found.append(Anomaly(p, reason, calc.after(p)))
    return found


def _show(x: Fraction) -> str:
    """A number for a note: an integer as is, anything else to at most 4 decimals."""
    if x.denominator == 1:
        return str(x.numerator)
    ten_thousandths = round_integer(x * 10_000)
    sign = "-" if ten_thousandths < 0 else ""
    whole, fraction = divmod(abs(ten_thousandths), 10_000)
    return f"{sign}{whole}.{fraction:04d}".rstrip("0").rstrip(".")


def _json_number(x: Fraction) -> float:
    """An exact value as the nearest JSON number; integers stay integers (D22)."""
    return x.numerator if x.denominator == 1 else x.numerator / x.denominator


# --- The system ----------------------------------------------------------------------------


def _rounds(event: EventInput, index: Mapping[str, int]) -> list[tuple[int, list[Pairing]]]:
    """Games grouped by round, rounds ascending, input order inside a round (D3, D4)."""
    by_round: dict[int, list[Pairing]] = {}
    for game in event.games:
        white_s2 = 1 if game.result == "draw" else 2 if game.result == "white" else 0
        pairing = (index[game.white], index[game.black], white_s2)
        by_round.setdefault(game.round, []).append(pairing)
    return sorted(by_round.items())


def rate(event: EventInput) -> EventOutput:
    """Rate one event under the UFGO system (B1-B7)."""
    rules = make_rules(event.params, event.event.board, event.event.official)
    index = {player.id: i for i, player in enumerate(event.players)}
    rounds = _rounds(event, index)
    starts = [start_rating(player) for player in event.players]
    anomalous = [False] * len(starts)
    notes = _k3_notes(rules) if event.games else []
    recalculations = 0
    while True:
        calc = calculate(starts, rounds, rules)
        found = find_anomalies(calc)
        if not found:
            break
        if recalculations == rules.max_recalculations:
            names = ", ".join(event.players[a.player].id for a in found)
            notes.append(
                f"stopped after {recalculations} recalculations (max_recalculations); "
                f"still anomalous: {names}"
            )
            break
        recalculations += 1
        for anomaly in found:
            player_id = event.players[anomaly.player].id
            notes.append(
                f"recalculation {recalculations}: {player_id} anomalous ({anomaly.reason}); "
                f"start {_show(starts[anomaly.player])} -> {_show(anomaly.new_start)}"
            )
            starts[anomaly.player] = anomaly.new_start
            anomalous[anomaly.player] = True
    try:
        ids = [player.id for player in event.players]
        players = tuple(_player_output(calc, p, ids, anomalous[p]) for p in range(len(ids)))
    except OverflowError:  # only absurdly small divisors can blow changes past float range
        raise BadInput("params", "the divisors make rating changes too large to write") from None
    return EventOutput(
        system=SYSTEM_CODE, event=event.event.id, players=players, notes=tuple(notes)
    )


def _k3_notes(rules: Rules) -> list[str]:
    if rules.k3_on and rules.k3_forced:
        return ["K3 applied (params.k3 is true)"]
    if not rules.k3_on:
        why = "params.k3 is false" if rules.k3_forced else "event not official"
        return [f"K3 not applied ({why})"]
    return []


def _player_output(calc: Calculation, p: int, ids: Sequence[str], anomalous: bool) -> PlayerOutput:
    """B7: `before` is the start of the last calculation (D16), `after` an integer."""
    before, after = calc.starts[p], calc.after(p)
    unit = calc.unit
    games = tuple(
        GameOutput(
            round_number,
            ids[opponent],
            s2 // 2 if s2 % 2 == 0 else s2 / 2,  # 1, 0.5, 0
            None if expected is None else expected / 100,
            _units_json(change, unit),
        )
        for round_number, opponent, s2, expected, change in calc.games(p)
    )
    return PlayerOutput(
        id=ids[p],
        before=_json_number(before),
        after=_json_number(after),
        change=_json_number(after - before),
        rated=True,
        provisional=False,
        anomalous=anomalous,
        history=None,
        games=games,
    )


def _units_json(units: int, unit: int) -> float:
    """`_json_number(Fraction(units, unit))` without the Fraction: the quotient of two
    ints is correctly rounded, reduced or not."""
    return units // unit if units % unit == 0 else units / unit


SYSTEM_CODE = "ufgo"
SYSTEM = RatingSystem(
    code=SYSTEM_CODE,
    title="Ukrainian Go Federation (UFGO) individual coefficient",
    params=DEFAULT_PARAMS,
    rate=rate,
    needs_grade=False,
    several_games_per_round=True,  # D4 defines batches
)
