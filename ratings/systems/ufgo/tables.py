"""The UFGO system's published tables 2-5 and the points of section 5
(`shared/spec/ufgo.md`, Part B3), with their lookups. `ufgo` rates with them.
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction

from ratings.systems.ufgo.rules import Exact

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
_T3_BOUNDS = tuple(row[0] for row in TABLE3 if row[0] is not None)
_T4_BOUNDS = tuple(row[0] for row in TABLE4)
_T5_BOUNDS = tuple(row[0] for row in TABLE5)
# Table 2 unrolled: K1 (hundredths) of the lower-rated player by ceil(|R12|), 0 ... 735.
_K1_LOWER_BY_DIFF: tuple[int, ...] = tuple(
    next(k for upper, k in TABLE2 if upper >= diff) for diff in range(TABLE2[-1][0] + 1)
)


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
