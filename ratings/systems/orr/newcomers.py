"""ORR: the formulas that give a newcomer (or an unsettled player) a value to start from.

Spec: `shared/spec/orr.md`, Part B sections B.1-B.5, decisions D2-D13, D18, D24.
Everything here is a pure function of numbers; `orr.py` decides who gets which.

Rational quantities (scores, means, Rs, the Rpp term) are `Fraction`s so that
half-ties land exactly on .5 (D3); the transcendental parts (ln, e^x, lg of a
non-power of ten) are computed in double precision, as D3 allows.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

# --- Published constants (A.2) -------------------------------------------------
KT_MIN = 8  # tournament coefficient when nobody is rated; also its floor
KT_MAX = 25  # largest tournament coefficient
KT_REDUCED_BASE = 7  # Kt = 7 + [(Kt - 8)/(n - i)] when too few rated players
KI_SCALE, KI_OFFSET = 20, 5  # Ki = (20*e^A - 5)/Y  and  Rmax = 1000*ln((Kt*Y + 5)/20)
SCORE_WEIGHT, RATING_SCALE = 800, 1000  # A = (800*(1 - S/N) + R)/1000
CORRIDOR_WIDTH = 800  # Rmin = Rmax - 800 ...
RMIN_CAP = 1000  # ... but never above 1000
RPMAX_STEPS = 16  # Rpmax lowers the top of the corridor in steps of (Rmax - Rmin)/16
RPMAX_FULL_GAMES = 7  # from 7 games on, Rpmax = Rmax
ELO_SPREAD = 400  # Rp = Rsr - 400*lg(N/S - 1)
MANY_GAMES = 15  # the Rpp correction starts above 15 games
RPP_DIVISOR = 20

# e^A overflows a double near A = 709. Any A above this cap already gives a Ki
# so large that the mean is clamped to KT_MAX, so capping cannot change Kt.
KI_EXPONENT_CAP = 100.0

HALF = Fraction(1, 2)


# --- Rounding (B.0, D2, D6) ----------------------------------------------------
def round_rational(value: Fraction | int) -> int:
    """The document's "arithmetic rounding": half away from zero (B.0, D2)."""
    numerator, denominator = value.numerator, value.denominator  # denominator > 0
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)  # floor(|v| + 1/2)
    return magnitude if numerator >= 0 else -magnitude


def round_float(value: float) -> int:
    """Half away from zero for a double-precision value (Rmax, Rp; D2, D3)."""
    magnitude = math.floor(abs(value) + 0.5)
    return magnitude if value >= 0 else -magnitude


def floor_lg(value: Fraction | int) -> int:
    """[lg x] for a rational x >= 1, exactly, so that [lg 10] is 1 (B.0)."""
    if value < 1:
        raise ValueError(f"[lg x] needs x >= 1, got {value}")
    power = 0
    while 10 ** (power + 1) <= value:
        power += 1
    return power


# --- Ages (B.1, D8) -------------------------------------------------------------
def completed_age(birth_date: dt.date, on: dt.date) -> int:
    """Completed years on `on`; a birthday falling on that day counts (B.1)."""
    years = on.year - birth_date.year
    if (on.month, on.day) < (birth_date.month, birth_date.day):
        years -= 1
    return years


def clamped_age(birth_date: dt.date | None, on: dt.date, age_min: int, age_max: int) -> int:
    """Age clamped to [age_min, age_max]; an unknown birth date counts as age_min (D8)."""
    if birth_date is None:
        return age_min
    return min(max(completed_age(birth_date, on), age_min), age_max)


def average_opponent_age(opponent_ages: Sequence[int]) -> Fraction:
    """Y: per-game mean of the opponents' clamped ages, rounded to 0.1 (B.1)."""
    mean_times_10 = Fraction(10 * sum(opponent_ages), len(opponent_ages))
    return Fraction(round_rational(mean_times_10), 10)


# --- Tournament coefficient (B.2, D5-D7, D24) ----------------------------------
@dataclass(frozen=True, slots=True)
class RatedShowing:
    """One rated player's part in this event, as Ki needs it."""

    rating: Fraction
    games: int
    score: Fraction
    opponents_age: Fraction  # Y


@dataclass(frozen=True, slots=True)
class TournamentCoefficient:
    kt: int
    rated_players: int  # i
    participants: int  # Np
    root: int  # n = round(sqrt(Np))
    mean_ki: float | None  # None when i == 0
    clamped: int | None  # [mean Ki] clamped to 8..25, before the reduction


def player_coefficient(showing: RatedShowing) -> float:
    """Ki = (20*e^A - 5)/Y with A = (800*(1 - S/N) + R)/1000 (A.2, B.2)."""
    share_lost = 1 - showing.score / showing.games
    a = float((SCORE_WEIGHT * share_lost + showing.rating) / RATING_SCALE)
    return (KI_SCALE * math.exp(min(a, KI_EXPONENT_CAP)) - KI_OFFSET) / float(showing.opponents_age)


def tournament_coefficient(
    participants: int, showings: Sequence[RatedShowing]
) -> TournamentCoefficient:
    """Kt: floor of the mean Ki, clamped to 8..25, then reduced if i < n (B.2, D7)."""
    root = round_float(math.sqrt(participants))
    rated = len(showings)
    if rated == 0:
        return TournamentCoefficient(KT_MIN, 0, participants, root, None, None)
    mean_ki = math.fsum(player_coefficient(s) for s in showings) / rated
    clamped = min(max(math.floor(mean_ki), KT_MIN), KT_MAX)
    kt = clamped
    if rated < root:
        kt = max(KT_REDUCED_BASE + (clamped - KT_MIN) // (root - rated), KT_MIN)
    return TournamentCoefficient(kt, rated, participants, root, mean_ki, clamped)


# --- Corridor and start estimate (B.3, D9-D11) ---------------------------------
@dataclass(frozen=True, slots=True)
class Corridor:
    top: int  # Rmax
    bottom: int  # Rmin
    refined_top: int  # Rpmax, for this number of games


def corridor(kt: int, opponents_age: Fraction, games: int) -> Corridor:
    """Rmax (rounded, D9), Rmin capped at 1000, and Rpmax for `games` games (B.3, D10)."""
    top = round_float(RATING_SCALE * math.log(float(kt * opponents_age + KI_OFFSET) / KI_SCALE))
    bottom = min(top - CORRIDOR_WIDTH, RMIN_CAP)
    return Corridor(top, bottom, refined_top(top, bottom, games))


def refined_top(top: int, bottom: int, games: int) -> int:
    """Rpmax = Rmax - [(Rmax-Rmin)/16]*(1-[lg(N+3)])*(7-N), literally (D10)."""
    step = (top - bottom) // RPMAX_STEPS
    return top - step * (1 - floor_lg(games + 3)) * (RPMAX_FULL_GAMES - games)


def start_estimate(band: Corridor, games: int, score: Fraction) -> int:
    """Rs = round(Rmin + (Rpmax - Rmin)*S/N), exact then rounded once (B.3, D11)."""
    return round_rational(band.bottom + (band.refined_top - band.bottom) * score / games)


# --- Primary estimate (B.4, B.5, D12, D13, D18) --------------------------------
@dataclass(frozen=True, slots=True)
class Estimate:
    average: int  # Rsr
    raw: int  # Rp (or Rk) before the >15-games correction
    value: Fraction  # after the correction (Rpp); equals `raw` when it does not apply


def primary_estimate(
    opponent_values: Sequence[Fraction],
    score: Fraction,
    own_value: Fraction,
    band_top: int,
) -> Estimate:
    """Rp = round(Rsr - 400*lg(N/S - 1)), then the >15-games correction (B.4, B.5).

    A 100 % score adds a drawn game against `own_value` (the player's Rs, or an
    unsettled player's starting rating) to the mean, N and S. The score must
    be positive: the callers handle a zero score (Rp = Rs, or Rk = R0).
    `band_top` is the Rpmax the correction compares against.
    """
    games = len(opponent_values)
    if not 0 < score <= games:
        raise ValueError(f"primary estimate needs 0 < S <= N, got S={score}, N={games}")
    values = list(opponent_values)
    games_used, score_used = Fraction(games), score
    if score == games:
        values.append(own_value)
        games_used, score_used = games_used + 1, score + HALF
    average = round_rational(sum(values, Fraction(0)) / len(values))
    odds_against = float(games_used / score_used - 1)
    raw = round_float(average - ELO_SPREAD * math.log10(odds_against))
    return Estimate(average, raw, many_games_correction(raw, band_top, games))


def many_games_correction(estimate: Fraction | int, band_top: int, games: int) -> Fraction:
    """Rpp = Rp - [lg((N+4)/2)]*[Rp/Rpmax]*(N-15)*(Rp-Rpmax)/20 (B.4.3, D13).

    [Rp/Rpmax] is taken as 0 unless Rp >= Rpmax > 0: a literal floor of a
    negative quotient would raise the estimate, which the document rules out.
    """
    size_factor = floor_lg(Fraction(games + 4, 2))
    excess_factor = math.floor(Fraction(estimate) / band_top) if 0 < band_top <= estimate else 0
    if size_factor == 0 or excess_factor == 0:
        return Fraction(estimate)
    reduction = (
        size_factor
        * excess_factor
        * (games - MANY_GAMES)
        * (estimate - band_top)
        / Fraction(RPP_DIVISOR)
    )
    return Fraction(round_rational(estimate - reduction))
