"""The UFGO rating system (`ufgo`): `shared/spec/ufgo.md`, Part B.

Round by round, formula (1) ``R = K2·(Rп − K1) + K3`` with the lookup tables
2 and 3, the fixed-point rules for IKs under 100 (section 5, tables 4 and 5),
and the anomaly rules (4.4-4.7, 5.4) that restart the whole event from raised
start ratings until nobody is anomalous. All arithmetic is exact (B2): inside a
calculation ratings are integers in a common unit (a tenth, or finer when a start
rating has more decimals), elsewhere `Fraction`s. The grade rules (section 2, 1.7)
live in `grades`, the published tables 2-5 and their lookups in `tables`,
the parameters in `rules` (modules of this package).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ratings.systems.model import (
    BadInput,
    EventInput,
    EventOutput,
    GameOutput,
    Player,
    PlayerOutput,
    RatingSystem,
)
from ratings.systems.ufgo.grades import t1_start
from ratings.systems.ufgo.rules import DEFAULT_PARAMS, Exact, Rules, exact, make_rules
from ratings.systems.ufgo.tables import (
    EXTRA_POINTS_LIMIT,
    LOSS_BELOW_100,
    WIN_BELOW_100,
    k1_hundredths,
    t3,
    t4,
    t5,
)
from ratings.systems.ufgo.tables import TABLE2 as TABLE2
from ratings.systems.ufgo.tables import TABLE3 as TABLE3
from ratings.systems.ufgo.tables import TABLE4 as TABLE4
from ratings.systems.ufgo.tables import TABLE5 as TABLE5
from ratings.systems.ufgo.tables import k1 as k1

BOUNDARY = 100  # section 5
BOUNDARY_RATIO = 10  # 5.5: one point below 100 = ten points at or above 100

ZERO = Fraction(0)


# --- Numbers (B2) --------------------------------------------------------------------------


def round1(x: Fraction) -> Fraction:
    """Round half up (towards +inf) to 0.1: ``floor(10x + 1/2) / 10`` (B2, 4.9)."""
    return Fraction((20 * x.numerator + x.denominator) // (2 * x.denominator), 10)


def round_integer(x: Fraction) -> int:
    """Round half up (towards +inf) to an integer: ``floor(x + 1/2)`` (B2, 4.9)."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


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
        return Fraction(*self.anomaly_limit_ratio(p))

    def anomaly_limit_ratio(self, p: int) -> tuple[int, int]:
        """`anomaly_limit` as (numerator, denominator > 0), on plain ints: it is needed
        for every player who gained, and Fraction arithmetic is slow.

        ``RA = (a·ΣK2 + K3f) / divisor + K3t`` with ``a = a_n/a_d``, ``K3f = f_n/f_d``,
        ``divisor = v_n/v_d``, ``K3t = t_n/t_d``.
        """
        state, rules = self.players[p], self.rules
        a, divisor = rules.anomaly_factor, rules.divisor
        k3f, k3t = state.k3_formula1, state.k3_table4
        # (a·ΣK2 + K3f) / divisor = num / den
        num = a.numerator * state.k2_sum * k3f.denominator + k3f.numerator * a.denominator
        num *= divisor.denominator
        den = a.denominator * k3f.denominator * divisor.numerator
        return num * k3t.denominator + k3t.numerator * den, den * k3t.denominator

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
        limit_num, limit_den = calc.anomaly_limit_ratio(p)
        if (after_units - start_units) * limit_den > limit_num * unit:  # gain > RA
            gain, limit = Fraction(after_units - start_units, unit), calc.anomaly_limit(p)
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
