"""Open Russian Rating (ORR): entry point and the standard algorithm.

Spec: `shared/spec/orr.md`, Part B (normative), decisions D1-D27, contract
mapping in Part D. The newcomer formulas (Kt, corridor, estimates) live in
`newcomers.py`, the reading of `params` and `history` in `inputs.py`;
this module decides who is what, runs the standard algorithm (B.7) and hands
back the unsettled state (B.8).

ORR rates a whole tournament at once: every game is rated between
"standard-stage values" (a rated player's rating, a newcomer's primary
estimate), so rounds only order the output.
"""

from __future__ import annotations

import bisect
import copy
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple

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
from ratings.systems.orr.inputs import (
    DEFAULT_PARAMS,
    Carried,
    carried_state,
    exact,
    plain,
    read_history,
    read_settings,
    to_float,
)
from ratings.systems.orr.newcomers import (
    Corridor,
    Estimate,
    RatedShowing,
    TournamentCoefficient,
    average_opponent_age,
    clamped_age,
    corridor,
    many_games_correction,
    primary_estimate,
    round_rational,
    start_estimate,
    tournament_coefficient,
)

# --- Published constants (A.1) -------------------------------------------------
# K table: (lowest Ra of the row, K when SR >= 0, K when SR < 0). Rows are
# half-open; the first row ("1-99") takes every value below 100, 0 and
# negatives included (D4).
K_TABLE: tuple[tuple[int, int, int], ...] = (
    (0, 100, 5),
    (100, 100, 10),
    (200, 100, 15),
    (300, 100, 20),
    (400, 100, 25),
    (500, 90, 25),
    (600, 80, 25),
    (700, 70, 25),
    (800, 60, 25),
    (900, 50, 25),
    (1000, 45, 25),
    (1100, 40, 25),
    (1300, 35, 25),
    (1500, 30, 25),
    (1700, 25, 20),
    (2000, 20, 20),
    (2200, 16, 16),
    (2400, 12, 12),
)
_K_ROW_STARTS = [row[0] for row in K_TABLE]
SR_CAP = 20  # above it R± = 10*K
SR_DAMPING = 40  # R± = K*SR*(1 - SR/40)
CAPPED_MULTIPLIER = 10
ELO_SPREAD = 400
PD_QUANTUM = Decimal("0.01")  # PD rounded to 2 decimals (D1)
# |Rb - Ra|/400 beyond which 10^x overflows a double; PD is 0 or 1 there anyway.
PD_EXPONENT_LIMIT = 300.0

PER_GAME_NOTE = (
    "per-game 'change' is K*(S-PD), the game's share before the tournament formula R+- "
    "(K*SR*(1-SR/40) or 10K); it need not sum to the player's change"
)


# --- The standard algorithm (A.1, B.7) -----------------------------------------
_HUNDREDTHS = tuple(Fraction(h, 100) for h in range(101))


def _half_up_hundredths(pd: float) -> int:
    """PD in whole hundredths, half up on the decimal the double prints as (D1)."""
    scaled = pd * 100
    hundredths = math.floor(scaled + 0.5)
    if abs(scaled - math.floor(scaled) - 0.5) < 1e-9:  # a near-tie: decide on the decimal
        exact_decimal = Decimal(repr(pd)).quantize(PD_QUANTUM, rounding=ROUND_HALF_UP)
        hundredths = int(exact_decimal * 100)
    return hundredths


def expectation(own: float, opponent: float, round_pd: bool) -> Fraction:
    """PD = 1/(1 + 10^((Rb - Ra)/400)), rounded half up to 2 decimals (A.1, D1)."""
    exponent = (opponent - own) / ELO_SPREAD
    if exponent > PD_EXPONENT_LIMIT:
        pd = 0.0
    elif exponent < -PD_EXPONENT_LIMIT:
        pd = 1.0
    else:
        pd = 1.0 / (1.0 + 10.0**exponent)
    return _HUNDREDTHS[_half_up_hundredths(pd)] if round_pd else Fraction(pd)


def development_coefficient(rating: Fraction, sr: Fraction) -> int:
    """K from the row of Ra and the sign of SR (A.1 table, D4)."""
    # Rows start at whole numbers, so the floor of Ra finds the same row (and cheaply).
    row = K_TABLE[max(bisect.bisect_right(_K_ROW_STARTS, math.floor(rating)) - 1, 0)]
    return row[1] if sr >= 0 else row[2]


def rating_change(k: int, sr: Fraction) -> Fraction:
    """R± by the three branches of A.1: K*SR*(1 - SR/40), SR*K, or 10*K."""
    if sr < 0:
        return sr * k
    if sr > SR_CAP:
        return Fraction(CAPPED_MULTIPLIER * k)
    return k * sr * (1 - sr / SR_DAMPING)


@dataclass(frozen=True, slots=True)
class StandardResult:
    expectations: tuple[Fraction, ...]  # one per (opponent value, score), in order
    k: int
    after: int


def _exact_sum(values: Sequence[Fraction]) -> Fraction:
    """Sum of fractions; fast when every denominator divides 100 (scores, rounded PD)."""
    hundredths = 0
    for value in values:
        numerator, denominator = value.numerator, value.denominator
        if 100 % denominator:
            return sum(values, Fraction(0))
        hundredths += numerator * (100 // denominator)
    return Fraction(hundredths, 100)


def _game_change(k: int, score: Fraction, pd: Fraction) -> float:
    """K*(S - PD) of one game (D20), as the float nearest the exact value."""
    if 100 % pd.denominator == 0:  # rounded PD: whole hundredths, plain int arithmetic
        hundredths = score.numerator * (100 // score.denominator) - pd.numerator * (
            100 // pd.denominator
        )
        return k * hundredths / 100
    return to_float(k * (score - pd))


def standard_algorithm(
    rating: Fraction, games: Sequence[tuple[Fraction, Fraction]], round_pd: bool
) -> StandardResult:
    """Rate one player's games (opponent value, score) from `rating` (B.7).

    SR is exact (D3): scores and rounded PDs are whole hundredths.
    """
    own = to_float(rating)
    expectations = tuple(expectation(own, to_float(opponent), round_pd) for opponent, _ in games)
    sr = _exact_sum([score for _, score in games]) - _exact_sum(expectations)
    k = development_coefficient(rating, sr)
    return StandardResult(expectations, k, round_rational(rating + rating_change(k, sr)))


# --- One event ------------------------------------------------------------------
# result -> (White's score, Black's score); anything but these two is a win for Black,
# as `Game.score_of` reads it.
_SCORES = {"white": (Fraction(1), Fraction(0)), "draw": (Fraction(1, 2), Fraction(1, 2))}
_BLACK_WINS = (Fraction(0), Fraction(1))


class PlayedGame(NamedTuple):
    """One game as one player saw it (two per game: a named tuple is quick to build)."""

    round: int
    opponent: str
    score: Fraction


@dataclass(frozen=True, slots=True)
class NewcomerEstimate:
    """B.3-B.4 for one newcomer with games: corridor, Rs, and Rp (None for a zero score)."""

    opponents_age: Fraction
    band: Corridor
    start: int
    primary: Estimate | None

    @property
    def value(self) -> Fraction:
        """The standard-stage value: Rp, or Rs for a zero scorer (B.6)."""
        return self.primary.value if self.primary else Fraction(self.start)


@dataclass(frozen=True, slots=True)
class Correction:
    """B.5 for one unsettled player: Rkor from stored games plus this event."""

    games: int
    score: Fraction
    band: Corridor
    estimate: Estimate | None  # None when the total score is 0 (Rk = R0)
    value: Fraction  # Rkor


def _games_by_player(event: EventInput) -> dict[str, list[PlayedGame]]:
    """Each player's games ordered by round, then input position (B.0, D23)."""
    by_player: dict[str, list[PlayedGame]] = {player.id: [] for player in event.players}
    games = event.games
    for index in sorted(range(len(games)), key=lambda index: games[index].round):  # stable
        round_number, white, black, result, _ = games[index]
        if white not in by_player:
            raise BadInput(f"games[{index}].white", f"unknown player id {white!r}")
        if black not in by_player:
            raise BadInput(f"games[{index}].black", f"unknown player id {black!r}")
        if white == black:
            raise BadInput(f"games[{index}].black", "a player cannot play himself")
        white_score, black_score = _SCORES.get(result, _BLACK_WINS)
        by_player[white].append(PlayedGame(round_number, black, white_score))
        by_player[black].append(PlayedGame(round_number, white, black_score))
    return by_player


def _participants(event: EventInput) -> int:
    given = event.event.participants
    if given is None:
        return len(event.players)
    if isinstance(given, bool) or not isinstance(given, int) or given < 1:
        raise BadInput("event.participants", f"must be a positive integer, got {given!r}")
    return given


class TournamentWork:
    """The working state of one event, built stage by stage as Part B orders it."""

    def __init__(self, event: EventInput) -> None:
        self.event = event
        self.settings = read_settings(event.params)
        self.players = {player.id: player for player in event.players}
        self.ratings: dict[str, Fraction] = {}
        self.carried: dict[str, Carried | None] = {}
        for index, player in enumerate(event.players):
            field = f"players[{index}]"
            if player.rating is not None:
                self.ratings[player.id] = exact(player.rating, f"{field}.rating")
            self.carried[player.id] = read_history(player.history, f"{field}.history")
        self.games = _games_by_player(event)
        self.scores = {
            pid: _exact_sum([g.score for g in games]) for pid, games in self.games.items()
        }
        self.notes: list[str] = [PER_GAME_NOTE]
        ages = {
            player.id: clamped_age(
                player.birth_date, event.event.date, self.settings.age_min, self.settings.age_max
            )
            for player in event.players
        }
        self.opponents_age = {
            pid: average_opponent_age([ages[g.opponent] for g in games])
            for pid, games in self.games.items()
            if games
        }

    def is_newcomer(self, player_id: str) -> bool:
        return player_id not in self.ratings

    def is_unsettled(self, player_id: str) -> bool:
        return player_id in self.ratings and self.carried[player_id] is not None

    def score(self, player_id: str) -> Fraction:
        return self.scores[player_id]

    def coefficient(self) -> TournamentCoefficient:
        """Kt from every rated player who played (B.2, D5)."""
        showings = [
            RatedShowing(rating, len(self.games[pid]), self.score(pid), self.opponents_age[pid])
            for pid, rating in self.ratings.items()
            if self.games[pid]
        ]
        kt = tournament_coefficient(_participants(self.event), showings)
        if kt.mean_ki is None:
            self.notes.append(f"Kt={kt.kt} (no rated player; Np={kt.participants})")
        else:
            self.notes.append(
                f"Kt={kt.kt} (i={kt.rated_players} rated players, mean Ki={kt.mean_ki:.3f}, "
                f"[mean] clamped={kt.clamped}, Np={kt.participants}, n={kt.root})"
            )
        return kt

    def newcomer_estimates(self, kt: int) -> dict[str, NewcomerEstimate]:
        """Corridor and Rs for every newcomer (B.3), then Rp against start values (B.4)."""
        bands: dict[str, tuple[Corridor, int]] = {}
        for pid, games in self.games.items():
            if self.is_newcomer(pid) and games:
                band = corridor(kt, self.opponents_age[pid], len(games))
                bands[pid] = (band, start_estimate(band, len(games), self.score(pid)))
        # Estimate-stage values: rated players at their rating, newcomers at Rs (D12).
        start_values = dict(self.ratings)
        start_values.update({pid: Fraction(start) for pid, (_, start) in bands.items()})
        estimates: dict[str, NewcomerEstimate] = {}
        for pid, (band, start) in bands.items():
            score = self.score(pid)
            primary = None
            if score > 0:
                opponents = [start_values[g.opponent] for g in self.games[pid]]
                primary = primary_estimate(opponents, score, Fraction(start), band.refined_top)
            estimates[pid] = NewcomerEstimate(self.opponents_age[pid], band, start, primary)
            self._note_newcomer(pid, estimates[pid])
        self.start_values = start_values
        return estimates

    def _note_newcomer(self, pid: str, found: NewcomerEstimate) -> None:
        games, band, primary = self.games[pid], found.band, found.primary
        line = (
            f"{pid}: newcomer N={len(games)} S={plain(self.score(pid))} "
            f"Y={plain(found.opponents_age)} Rmax={band.top} Rmin={band.bottom} "
            f"Rpmax={band.refined_top} Rs={found.start} "
        )
        if primary is None:
            line += f"Rsr=None Rp={found.start} (zero score: no rating)"
        else:
            line += f"Rsr={primary.average} Rp={primary.raw}"
            if primary.value != primary.raw:
                line += f" Rpp={plain(primary.value)}"
        self.notes.append(line)

    def correction(self, pid: str, kt: int) -> Correction:
        """Rkor for an unsettled player over stored games plus this event (B.5, D18, D19)."""
        carried = self.carried[pid]
        assert carried is not None
        start = self.ratings[pid]
        games = self.games[pid]
        values = [g.rating for g in carried.games] + [self.start_values[g.opponent] for g in games]
        score = sum((g.score for g in carried.games), Fraction(0)) + self.score(pid)
        band = corridor(kt, self.opponents_age[pid], len(values))
        if score == 0:
            estimate = None
            value = many_games_correction(start, band.refined_top, len(values))
        else:
            estimate = primary_estimate(values, score, start, band.refined_top)
            value = estimate.value
        line = f"{pid}: provisional correction N={len(values)} S={plain(score)} "
        if estimate is None:
            line += f"(zero score: Rk = R0 = {plain(start)})"
        else:
            line += f"Rsr={estimate.average} Rkor={estimate.raw}"
            if estimate.value != estimate.raw:
                line += f" (Rmax={band.top} Rpmax={band.refined_top}) Rpp={plain(estimate.value)}"
        self.notes.append(line)
        return Correction(len(values), score, band, estimate, value)


def rate(event: EventInput) -> EventOutput:
    """Rate one ORR tournament (Part B)."""
    work = TournamentWork(event)
    kt = work.coefficient().kt
    newcomers = work.newcomer_estimates(kt)
    # Standard-stage values (B.6): rating, or Rp (Rs for a zero scorer).
    stage_values = dict(work.ratings)
    stage_values.update({pid: found.value for pid, found in newcomers.items()})
    corrections = {
        pid: work.correction(pid, kt)
        for pid in work.ratings
        if work.is_unsettled(pid) and work.games[pid]
    }
    settled_notes: list[str] = []
    outputs = tuple(
        _player_output(work, player, stage_values, newcomers, corrections, settled_notes)
        for player in event.players
    )
    return EventOutput(
        system="orr", event=event.event.id, players=outputs, notes=tuple(work.notes + settled_notes)
    )


def _player_output(
    work: TournamentWork,
    player: Player,
    stage_values: Mapping[str, Fraction],
    newcomers: Mapping[str, NewcomerEstimate],
    corrections: Mapping[str, Correction],
    settled_notes: list[str],
) -> PlayerOutput:
    """One player's result and his carried state (B.7, B.8, D15-D21)."""
    pid, games, settings = player.id, work.games[player.id], work.settings
    carried = work.carried[pid]
    this_event = [(stage_values[g.opponent], g.score) for g in games]
    if not games:
        if work.is_newcomer(pid):
            return PlayerOutput(pid, None, None, None, rated=False)
        unchanged = plain(work.ratings[pid])
        provisional = carried is not None
        return PlayerOutput(
            pid,
            unchanged,
            unchanged,
            0,
            provisional=provisional,
            history=copy.deepcopy(player.history),
        )
    if pid in newcomers and newcomers[pid].primary is None:
        # A zero-scoring newcomer gets no rating and stores nothing (D15, D20).
        start = newcomers[pid].value
        shown = tuple(
            _unrated_game(g, expectation(to_float(start), to_float(rb), settings.round_pd))
            for g, (rb, _) in zip(games, this_event, strict=True)
        )
        return PlayerOutput(pid, plain(start), None, None, rated=False, games=shown)
    stored: list[tuple[Fraction, Fraction]] = []
    if pid in newcomers:
        starting = rated_from = newcomers[pid].value
    elif pid in corrections:
        assert carried is not None
        stored = [(g.rating, g.score) for g in carried.games]
        starting, rated_from = work.ratings[pid], corrections[pid].value
    else:
        starting = rated_from = work.ratings[pid]
    result = standard_algorithm(rated_from, stored + this_event, settings.round_pd)
    shown = tuple(
        GameOutput(
            g.round, g.opponent, plain(g.score), to_float(pd), _game_change(result.k, g.score, pd)
        )
        for g, pd in zip(games, result.expectations[len(stored) :], strict=True)
    )
    history: JSON = None
    if work.is_newcomer(pid) or carried is not None:
        total_games = len(stored) + len(games)
        total_events = 1 if carried is None else carried.events + 1
        if total_games >= settings.settle_games and total_events >= settings.settle_events:
            settled_notes.append(
                f"{pid}: rating settled ({total_games} games, {total_events} events)"
            )
        else:
            added = [
                (g.round, g.opponent, value, g.score)
                for g, (value, _) in zip(games, this_event, strict=True)
            ]
            history = carried_state(work.event.event.id, carried, total_events, added)
    return PlayerOutput(
        pid,
        plain(starting),
        result.after,
        plain(result.after - starting),
        provisional=history is not None,
        history=history,
        games=shown,
    )


def _unrated_game(game: PlayedGame, pd: Fraction) -> GameOutput:
    """A zero scorer's game: PD for information, no change (D20)."""
    return GameOutput(
        game.round,
        game.opponent,
        plain(game.score),
        to_float(pd),
        None,  # type: ignore[arg-type]  # D20: null change; GameOutput.change is typed float
    )


def format_rating(value: float | None, provisional: bool) -> str:
    """How ORR shows a rating: `1345`, or `1345*` while unsettled (A.2); '' for none."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value}*" if provisional else f"{value}"


SYSTEM = RatingSystem(
    code="orr",
    title="Open Russian Rating (ORR, chess)",
    params=DEFAULT_PARAMS,
    rate=rate,
    needs_grade=False,
)
