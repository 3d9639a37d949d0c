"""Small numeric helpers the systems share: table interpolation and rounding."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal


def interpolate(table: Sequence[tuple[float, float]], x: float) -> float:
    """Piecewise-linear value of a published table at `x`.

    `table` is (x, y) points in increasing x; outside it the end values hold.
    """
    if x <= table[0][0]:
        return table[0][1]
    if x >= table[-1][0]:
        return table[-1][1]
    for (x0, y0), (x1, y1) in zip(table, table[1:], strict=False):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    raise AssertionError("unreachable: x lies inside the table")


def round_half_away(x: float, digits: int = 0) -> float:
    """Round half away from zero, on the decimal the float prints as.

    Python's `round()` rounds half to even, which the rating documents do not.
    """
    if not math.isfinite(x):
        raise ValueError(f"cannot round {x}")
    quantum = Decimal(1).scaleb(-digits)
    rounded = Decimal(repr(x)).quantize(quantum, rounding=ROUND_HALF_UP)
    return float(rounded)
