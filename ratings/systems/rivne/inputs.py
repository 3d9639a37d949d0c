"""The `rivne` system's reading of its input (`shared/spec/rivne.md`): the `params`
of B8 with their defaults, and the `history` flag a player carries (D20).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ratings.systems.model import JSON, BadInput, Player

DEFAULT_PARAMS: dict[str, JSON] = {
    "anomaly_factor": 0.45,
    "kd_13": 0.5,
    "kd_9": 1 / 3,
    "k2_base": 3100,
    "k2_divisor": 50000,
    "max_recalculations": 1000,
}
POSITIVE_PARAMS = ("anomaly_factor", "kd_13", "kd_9", "k2_base", "k2_divisor")


@dataclass(frozen=True, slots=True)
class Params:
    """Validated values of B8."""

    anomaly_factor: float
    kd_13: float
    kd_9: float
    k2_base: float
    k2_divisor: float
    max_recalculations: int


def parse_params(given: Mapping[str, JSON]) -> Params:
    """Defaults overridden by `params`; numeric ones positive, the guard a non-negative int (B8)."""
    values = dict(DEFAULT_PARAMS)
    for name, value in given.items():
        if name not in DEFAULT_PARAMS:
            raise BadInput(f"params.{name}", "unknown parameter for rivne")
        values[name] = value
    numbers: dict[str, float] = {}
    for name in POSITIVE_PARAMS:
        value = values[name]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise BadInput(f"params.{name}", "must be a positive number")
        numbers[name] = value
    guard = values["max_recalculations"]
    if isinstance(guard, bool) or not isinstance(guard, int) or guard < 0:
        raise BadInput("params.max_recalculations", "must be a non-negative integer")
    return Params(max_recalculations=guard, **numbers)


def flag_of(player: Player, index: int) -> bool:
    """`history.above_100` of the input: null or an object whose flag is a boolean (D20)."""
    history = player.history
    if history is None:
        return False
    if not isinstance(history, dict):
        raise BadInput(f"players[{index}].history", "must be null or an object")
    flag = history.get("above_100", False)
    if not isinstance(flag, bool):
        raise BadInput(f"players[{index}].history.above_100", "must be a boolean")
    return flag
