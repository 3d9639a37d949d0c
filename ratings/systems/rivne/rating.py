"""The Rivne Go club rating system (`rivne`).

Normative text: `shared/spec/rivne.md`, Part B (section numbers below refer to
it; decisions D1…D25 are its Part C). EGF's formula made round by round, plus
the K2 premium, board and handicap coefficients, the anomaly recalculation of
formula (8) and the UFGO rules below 100.

Every expression is evaluated exactly as B3/B5 write it (same operand order),
so results agree with the worked examples bit for bit (B2). Ratings are never
rounded (D11).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ratings.systems.grades import Grade
from ratings.systems.model import (
    BadInput,
    EventInput,
    EventOutput,
    GameOutput,
    Player,
    PlayerOutput,
    RatingSystem,
)
from ratings.systems.rivne.inputs import DEFAULT_PARAMS, Params, flag_of, parse_params

# --- Published tables and constants --------------------------------------------

# Table I: K1 at 100, 200, …, 2700 (B3 `K1`).
K1_TABLE: tuple[int, ...] = (
    116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 51,
    47, 43, 39, 35, 31, 27, 24, 21, 18, 15, 13, 11, 10,
)  # fmt: skip
K1_STEPS: tuple[int, ...] = tuple(b - a for a, b in zip(K1_TABLE, K1_TABLE[1:], strict=False))
K1_TABLE_LOW = 100.0
K1_TABLE_HIGH = 2700.0
_K1_LAST_SEGMENT = len(K1_STEPS) - 1

LOW_LIMIT = 100.0  # the boundary of the rules for ratings below 100
LOW_POINT_VALUE = 10  # 1 point below 100 = 10 points at or above 100
A_CAP_RATING = 2700.0  # a = 70 above this (D8)
A_ABOVE_CAP = 70.0
SIGMA_OVERFLOW = 700.0  # σ(t) = 0 beyond this (D22)
MAX_GRADE_DIFFERENCE = 9  # formula (7) applies up to 9 grades; beyond, SE = 0.5
PRO_GRADE_INDEX = 36  # every pro counts as 7d (D21)

# Fixed points below 100 (B3 WIN, LIMIT): board -> value.
WIN_POINTS: dict[int, int] = {9: 2, 13: 3, 19: 5}
LOSS_POINTS = 1
ADDITIONAL_POINTS_LIMIT: dict[int, int] = {9: 4, 13: 6, 19: 9}

# Table III: additional points by the opponent's rating band (lower bounds
# 100 / 200 / 400, lower-inclusive, D15), per board.
TABLE_III: dict[int, tuple[int, int, int]] = {9: (1, 2, 3), 13: (2, 3, 4), 19: (3, 5, 7)}
TABLE_III_BANDS: tuple[float, float] = (200.0, 400.0)

HANDICAP_NOTE = "handicap games present: no check against the maximum gain (8)"


# --- Formulas (B3) ---------------------------------------------------------------


def k1(r: float) -> float:
    """Table I with linear interpolation; 116 at or below 100, 10 at or above 2700 (B3, D9)."""
    if r <= K1_TABLE_LOW:
        return K1_TABLE[0]
    if r >= K1_TABLE_HIGH:
        return K1_TABLE[-1]
    i = int((r - 100) / 100)  # r > 100 here, so int() is floor()
    if i > _K1_LAST_SEGMENT:  # guard: r a hair below 2700 must stay in the last segment
        i = _K1_LAST_SEGMENT
    lo = 100 + 100 * i
    return K1_TABLE[i] + K1_STEPS[i] * (r - lo) / 100


def k2(r: float, params: Params) -> float:
    """Formula (6): the premium `(3100 − r) / 50000` (B3)."""
    return (params.k2_base - r) / params.k2_divisor


def a_of(r: float) -> float:
    """Formula (4): `a = 205 − r / 20`, and 70 above 2700 (B3, D8)."""
    if r <= A_CAP_RATING:
        return 205 - r / 20
    return A_ABOVE_CAP


def formula1_scale(r: float) -> float:
    """`L(r)`: the rating as formula (1) sees it; below 100 it is `10·r − 900` (B3, D12)."""
    if r >= LOW_LIMIT:
        return r
    return 10 * r - 900


def sigma(t: float) -> float:
    """Formula (2) as `1 / (e^t + 1)`, 0 when `t > 700` (B3, D22)."""
    if t > SIGMA_OVERFLOW:
        return 0.0
    return 1 / (math.exp(t) + 1)


def handicap_coefficient(d: int) -> float:
    """`Kф(d) = (10 − min(d, 9)) / 10` (B3, D10)."""
    return (10 - min(d, MAX_GRADE_DIFFERENCE)) / 10


def board_coefficient(board: int, params: Params) -> float:
    """`Kd`: 1 / `kd_13` / `kd_9` for 19 / 13 / 9 (B3, D23)."""
    if board == 13:
        return params.kd_13
    if board == 9:
        return params.kd_9
    return 1


def table_iii(y: float, board: int) -> int:
    """Additional points for beating an opponent rated `y ≥ 100` (B3 `T3`, D15)."""
    row = TABLE_III[board]
    if y < TABLE_III_BANDS[0]:
        return row[0]
    if y < TABLE_III_BANDS[1]:
        return row[1]
    return row[2]


def start_of_grade(grade: Grade) -> float:
    """`start(grade)`: UFGO Table 1 lower bound, 30k = 0 … 20k = 100 … 7d = 2700 (B3, D2)."""
    if grade.kind == "k":
        if grade.level >= 21:
            return float((30 - grade.level) * 10)
        return float(100 * (21 - grade.level))
    if grade.kind == "d":
        return float(min(2000 + 100 * grade.level, 2700))
    return 2700.0


def grade_index(grade: Grade | None, start: float) -> int:
    """`gi`: 30k = 0 … 1k = 29, 1d = 30 … 9d = 38, pro = 36; else from the start (B3)."""
    if grade is not None:
        if grade.kind == "p":
            return PRO_GRADE_INDEX
        return grade.rank + 29
    if start < LOW_LIMIT:
        return max(0, min(9, math.floor(start / 10)))
    return min(PRO_GRADE_INDEX, 10 + math.floor((start - 100) / 100))


def move(r: float, delta: float, low: bool) -> float:
    """Apply a change, converting 1 : 10 when a low-rule gain crosses 100 upwards (B5.3, D13)."""
    if low:
        if r < LOW_LIMIT:
            t = r + delta
            return t if t < LOW_LIMIT else LOW_LIMIT + LOW_POINT_VALUE * (t - LOW_LIMIT)
        return r + LOW_POINT_VALUE * delta
    return r + delta


def maximum_gain(games: int, start: float, params: Params) -> float:
    """Formula (8): `ΔRmax = 0.45 · n · K1(S) · (1 + K2(S))` (B6, D16)."""
    return params.anomaly_factor * games * k1(start) * (1 + k2(start, params))


# --- Input -------------------------------------------------------------------------


def start_rating(player: Player, index: int, flag: bool) -> float:
    """B4: the input rating, else the grade's start, else 0; raised to 100 if flagged (D2, D13)."""
    if player.rating is not None:
        if isinstance(player.rating, bool) or not math.isfinite(player.rating):
            raise BadInput(f"players[{index}].rating", "must be a finite number")
        start = float(player.rating)
    elif player.grade is not None:
        start = start_of_grade(player.grade)
    else:
        start = 0.0
    if flag and start < LOW_LIMIT:
        start = LOW_LIMIT
    return start


class PlannedGame(NamedTuple):
    """A game by player index, with what its declared grades fix once for the event (D7, D10).

    `d` is the declared-grade difference; `even_odds` marks a handicap game
    beyond 9 grades (SE = 0.5); `correction` is formula (7)'s `N·100 − 50`
    (or 0); `kf_stronger` is player B's Kф.
    """

    white: int
    black: int
    white_score: float
    d: int
    even_odds: bool
    correction: int
    kf_stronger: float


def plan_game(white: int, black: int, white_score: float, handicap: int, d: int) -> PlannedGame:
    """Fix a game's handicap quantities from the grade difference `d` (B5 step 2, D7)."""
    if handicap < 1:
        return PlannedGame(white, black, white_score, d, False, 0, 1.0)
    return PlannedGame(
        white,
        black,
        white_score,
        d,
        even_odds=d > MAX_GRADE_DIFFERENCE,
        correction=100 * d - 50 if d >= 1 else 0,
        kf_stronger=handicap_coefficient(d),
    )


# --- One calculation (B5) ------------------------------------------------------------


@dataclass(slots=True)
class Calculation:
    """The state after running the event once from the start ratings `start`."""

    start: list[float]
    rating: list[float]
    above: list[bool]
    extra: list[float]
    played: list[int]
    # per player: (round, opponent index, score, expected, change)
    games: list[list[tuple[int, int, float, float | None, float]]]

    def after(self, p: int) -> float:
        return self.rating[p] if self.played[p] > 0 else self.start[p]


def expectation_of_a(game: PlannedGame, scaled_a: float, scaled_b: float, r0_a: float) -> float:
    """SE of player A: formulas (1), (2), (4) with the correction (7), or 0.5 beyond 9 grades.

    `scaled_a`, `scaled_b`: the players' start ratings as formula (1) sees them
    (`formula1_scale`, fixed for a whole calculation).
    """
    if game.even_odds:
        return 0.5
    x_a = scaled_a + game.correction
    delta_r = scaled_b - x_a
    return sigma(delta_r / a_of(r0_a))


def formula5_change(
    r: float, score: float, expected: float, kf: float, kd: float, params: Params
) -> float:
    """Formula (5)'s step `Kd · Kф · K1 · (R − SE + K2)`, K1 and K2 from the current `r` (B5)."""
    return kd * kf * k1(r) * (score - expected + k2(r, params))


def low_rule_change(x: int, score: float, y: float, board: int, extra: list[float]) -> float:
    """A game of a player below 100: fixed points, plus Table III against `y ≥ 100` (B5 step 2).

    The Table III points are also added to `extra[x]` for the anomaly limit (D14, D17).
    """
    delta = WIN_POINTS[board] * score + LOSS_POINTS * (1 - score)
    if y >= LOW_LIMIT:
        bonus = table_iii(y, board) * score
        extra[x] += bonus
        delta = delta + bonus
    return delta


def calculate(
    start: list[float],
    rounds: Sequence[tuple[int, Sequence[PlannedGame]]],
    board: int,
    params: Params,
) -> Calculation:
    """B5: rate the whole event round by round from the start ratings."""
    count = len(start)
    rating = list(start)
    calc = Calculation(
        start=start,
        rating=rating,
        above=[s >= LOW_LIMIT for s in start],
        extra=[0.0] * count,
        played=[0] * count,
        games=[[] for _ in range(count)],
    )
    above, extra, played, games = calc.above, calc.extra, calc.played, calc.games
    kd = board_coefficient(board, params)
    scaled = [formula1_scale(s) for s in start]

    for round_number, round_games in rounds:
        # Every change of the round is computed from the round-start ratings R0
        # (the untouched `rating` list) before any is applied (D3, D4).
        pending: list[tuple[int, int, float, float | None, float, bool]] = []
        append = pending.append
        for game in round_games:
            w, b = game.white, game.black
            r_w, r_b = rating[w], rating[b]
            s_w = game.white_score
            s_b = 1 - s_w
            if r_w >= LOW_LIMIT or r_b >= LOW_LIMIT:
                white_is_a = start[w] < start[b]  # a tie makes Black player A (D6)
                if white_is_a:
                    se_w = expectation_of_a(game, scaled[w], scaled[b], r_w)
                    se_b = 1 - se_w  # formula (3)
                    kf_w, kf_b = 1.0, game.kf_stronger
                else:
                    se_b = expectation_of_a(game, scaled[b], scaled[w], r_b)
                    se_w = 1 - se_b
                    kf_w, kf_b = game.kf_stronger, 1.0
            else:
                se_w = se_b = kf_w = kf_b = 0.5  # unused: both play by the rules below 100
            if r_w >= LOW_LIMIT:
                append((w, b, s_w, se_w, formula5_change(r_w, s_w, se_w, kf_w, kd, params), False))
            else:
                append((w, b, s_w, None, low_rule_change(w, s_w, r_b, board, extra), True))
            if r_b >= LOW_LIMIT:
                append((b, w, s_b, se_b, formula5_change(r_b, s_b, se_b, kf_b, kd, params), False))
            else:
                append((b, w, s_b, None, low_rule_change(b, s_b, r_w, board, extra), True))
            played[w] += 1
            played[b] += 1
        for x_index, y_index, score, expected, delta, low in pending:
            old = rating[x_index]
            new = move(old, delta, low) if low else old + delta  # `move`, its plain case
            if new >= LOW_LIMIT:
                above[x_index] = True
            elif above[x_index]:
                new = LOW_LIMIT  # once at or above 100, never below (D13)
            rating[x_index] = new
            games[x_index].append((round_number, y_index, score, expected, new - old))
    return calc


# --- The anomaly loop (B6) -----------------------------------------------------------


def rate(event_input: EventInput) -> EventOutput:
    """Rate one event under `rivne` (B1–B8)."""
    params = parse_params(event_input.params)
    board = event_input.event.board
    if board not in WIN_POINTS:
        raise BadInput("event.board", "must be 19, 13 or 9")
    players = event_input.players
    index_of = {player.id: i for i, player in enumerate(players)}
    flags = [flag_of(player, i) for i, player in enumerate(players)]
    start = [start_rating(player, i, flags[i]) for i, player in enumerate(players)]
    grade_indices = [grade_index(p.grade, start[i]) for i, p in enumerate(players)]
    rounds = plan_rounds(event_input, index_of, grade_indices)
    handicap_event = any(game.handicap >= 1 for game in event_input.games)
    limit = ADDITIONAL_POINTS_LIMIT[board]

    notes: list[str] = [HANDICAP_NOTE] if handicap_event else []
    anomalous = [False] * len(players)
    recalculations = 0
    while True:
        calc = calculate(start, rounds, board, params)
        firing: list[tuple[int, str, float]] = []
        for p in range(len(players)):
            if calc.played[p] == 0:
                continue
            reasons: list[str] = []
            gain = calc.after(p) - start[p]
            if not handicap_event and gain > 0:
                ceiling = maximum_gain(calc.played[p], start[p], params)
                if gain > ceiling:
                    reasons.append(f"gain {gain:.4f} > max {ceiling:.4f}")
            by_points = start[p] < LOW_LIMIT and calc.extra[p] >= limit
            if by_points:
                reasons.insert(0, f"{calc.extra[p]:g} additional points")
            if reasons:
                new_start = max(LOW_LIMIT, calc.after(p)) if by_points else calc.after(p)
                firing.append((p, "; ".join(reasons), new_start))
        if not firing:
            break
        if recalculations == params.max_recalculations:
            notes.append(
                f"stopped after {recalculations} recalculations (max_recalculations); "
                f"{len(firing)} player(s) still anomalous"
            )
            break
        recalculations += 1
        start = list(start)
        for p, reason, new_start in firing:
            notes.append(
                f"recalculation {recalculations}: {players[p].id} anomalous ({reason}); "
                f"start {start[p]:.4f} -> {new_start:.4f}"
            )
            start[p] = new_start
            anomalous[p] = True

    if not all(math.isfinite(calc.after(p)) for p in range(len(players))):
        # Only extreme params (a tiny k2_divisor, a huge k2_base) can get here.
        raise BadInput("params", "these parameter values make a rating overflow")
    ids = [player.id for player in players]
    outputs = tuple(
        player_output(calc, p, ids, flags[p], anomalous[p]) for p in range(len(players))
    )
    return EventOutput(
        system=SYSTEM_CODE, event=event_input.event.id, players=outputs, notes=tuple(notes)
    )


_WHITE_SCORES = {"white": 1.0, "draw": 0.5}  # else 0.0, as `Game.score_of` has it
_OUTPUT_SCORES = {1.0: 1, 0.5: 0.5, 0.0: 0}  # as in B7


def plan_rounds(
    event_input: EventInput, index_of: Mapping[str, int], grade_indices: Sequence[int]
) -> list[tuple[int, list[PlannedGame]]]:
    """Games by index, grouped by round in increasing order, input order kept within (D3)."""
    by_round: dict[int, list[PlannedGame]] = {}
    for i, game in enumerate(event_input.games):
        w, b = index_of.get(game.white), index_of.get(game.black)
        if w is None:
            raise BadInput(f"games[{i}].white", f"unknown player id {game.white!r}")
        if b is None:
            raise BadInput(f"games[{i}].black", f"unknown player id {game.black!r}")
        d = abs(grade_indices[w] - grade_indices[b])
        planned = plan_game(w, b, _WHITE_SCORES.get(game.result, 0.0), game.handicap, d)
        by_round.setdefault(game.round, []).append(planned)
    return sorted(by_round.items())


def player_output(
    calc: Calculation, p: int, ids: Sequence[str], flag_in: bool, anomalous: bool
) -> PlayerOutput:
    """B7: one player's result from the last calculation."""
    before = calc.start[p]
    after = calc.after(p)
    return PlayerOutput(
        id=ids[p],
        before=before,
        after=after,
        change=after - before,
        rated=True,
        provisional=False,
        anomalous=anomalous,
        history={"above_100": flag_in or calc.above[p] or after >= LOW_LIMIT},
        games=tuple(
            GameOutput(round_number, ids[opponent], _OUTPUT_SCORES[score], expected, change)
            for round_number, opponent, score, expected, change in calc.games[p]
        ),
    )


SYSTEM_CODE = "rivne"
SYSTEM = RatingSystem(
    code=SYSTEM_CODE,
    title="Rivne Go club (EGF formula round by round, UFGO rules below 100)",
    params=DEFAULT_PARAMS,
    rate=rate,
    needs_grade=False,  # D2: no grade → start 0
    several_games_per_round=True,  # D4 defines it
)
