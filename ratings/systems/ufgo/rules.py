"""The UFGO system's parameters (`shared/spec/ufgo.md`, B8): their defaults, their
checks, and the `Rules` one event is calculated under (board, K3 on or off, caps,
divisor). Numbers are exact (B2): `Fraction`s, or ints where they are whole.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from ratings.systems.model import JSON, BadInput

Exact = int | Fraction  # ints where possible: they are much cheaper than Fractions

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


def exact(number: float) -> Fraction:
    """An input number as the exact decimal it is written as (B2)."""
    if isinstance(number, int):
        return Fraction(number)
    return Fraction(repr(number))


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
