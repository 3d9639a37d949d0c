"""The win-probability calculator: the engine's own expectation for one game, per system.

Each system is asked through `rate_json` on a one-game event and the answer's
`games[0].expected` is read, so the figure is exactly what the system would use. Each
system is given what it actually uses:

- EGF: the ratings and the stones.
- UFGO: the ratings only; it has no handicap correction (ufgo.md D17).
- Rivne: the ratings and the declared grades. In a handicap game (any stones) its
  correction is 100·N − 50 for the lower-rated player, N the difference of the declared
  grades, not the stones; N ≥ 10 gives 0.5 (rivne.md D6, D7). Without both grades the
  calculator takes the handicap as fair: Black is as many grades below White as he
  takes stones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _

from clubsite.models import GameKind
from ratings.display.system_titles import system_title
from ratings.systems import BadInput, rate_json
from ratings.systems.grades import Grade
from ratings.systems.registry import SYSTEMS

SYSTEMS_BY_GAME = {
    GameKind.GO: ("egf", "ufgo", "rivne"),
    GameKind.CHESS: ("orr",),
    GameKind.REVERSI: ("uscf",),
}
HANDICAP_SYSTEMS = frozenset({"egf", "rivne"})  # UFGO ignores handicap (ufgo.md D17)
GO_SYSTEMS = frozenset({"egf", "ufgo", "rivne"})
TOP_RANK = 9  # 9d: rivne counts grades up to 9d (pros as 7d)


@dataclass(frozen=True)
class Expectation:
    system: str
    title: str
    rating_a: float
    rating_b: float
    handicap: int
    a: float | None  # A's expected score (A plays white)
    b: float | None
    note: str = ""  # what the system made of the handicap


def rivne_grade_of_rating(rating: float) -> Grade:
    """The grade rivne gives a player without one (rivne.md B3: index of the start)."""
    if rating < 100:
        index = max(0, min(9, math.floor(rating / 10)))
    else:
        index = min(36, 10 + math.floor((rating - 100) / 100))
    return Grade.from_rank(index - 29)


def rivne_grades(
    rating_a: float, rating_b: float, handicap: int, grade_a: Grade | None, grade_b: Grade | None
) -> tuple[Grade | None, Grade | None, bool]:
    """The declared grades rivne is given, and whether they were derived from the stones.

    With both grades known they are used as they are. Otherwise, in a handicap game, the
    missing ones are set so that Black (B) is `handicap` grades below White (A)."""
    if (grade_a is not None and grade_b is not None) or handicap < 1:
        return grade_a, grade_b, False
    if grade_b is None and grade_a is not None:
        grade_b = Grade.from_rank(max(-29, min(TOP_RANK, grade_a.rank) - handicap))
    if grade_b is None:
        grade_b = rivne_grade_of_rating(rating_b)
    if grade_a is None:
        grade_a = Grade.from_rank(min(TOP_RANK, grade_b.rank + handicap))
    return grade_a, grade_b, True


def _rivne_index(grade: Grade) -> int:
    """rivne.md B3: 30k → 0 … 9d → 38, any pro → 36 (as 7d)."""
    return 36 if grade.kind == "p" else grade.rank + 29


def _rivne_note(handicap: int, grade_a: Grade | None, grade_b: Grade | None, derived: bool) -> str:
    if handicap < 1:
        return ""
    if grade_a is None or grade_b is None:
        return _("Rivne: the correction uses the grade difference, not the stones.")
    n = abs(_rivne_index(grade_a) - _rivne_index(grade_b))
    if derived:
        text = _("Rivne: the handicap taken as fair, grades %(a)s and %(b)s (N = %(n)d).")
    else:
        text = _(
            "Rivne: N = %(n)d from the declared grades %(a)s and %(b)s; the number of "
            "stones is not used."
        )
    text %= {"a": grade_a, "b": grade_b, "n": n}
    if n >= 10:
        text += " " + _("Ten grades or more: an even chance, 0.5 each.")
    return text


def expectation(
    system: str,
    rating_a: float,
    rating_b: float,
    handicap: int = 0,
    board: int = 19,
    grade_a: Grade | None = None,
    grade_b: Grade | None = None,
) -> Expectation:
    """A (white) against B (black, taking `handicap` stones) under one system."""
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}")
    note = ""
    players: list[dict[str, object]] = [
        {"id": "a", "rating": rating_a},
        {"id": "b", "rating": rating_b},
    ]
    if system == "ufgo" and handicap:
        note = _("UFGO has no handicap correction.")
    if system not in HANDICAP_SYSTEMS:
        handicap = 0
    if system == "rivne":
        grade_a, grade_b, derived = rivne_grades(rating_a, rating_b, handicap, grade_a, grade_b)
        for player, grade in zip(players, (grade_a, grade_b), strict=True):
            if grade is not None:
                player["grade"] = str(grade)
        note = _rivne_note(handicap, grade_a, grade_b, derived)
        if handicap and rating_b > rating_a:
            note += " " + _("B is rated higher but takes the stones: Rivne gives its "
                            "correction to the lower-rated player, here A.")  # fmt: skip
    # The expected winner wins: an upset would make rivne raise the loser's start
    # (its anomaly rules, rivne.md B6) and so change the very expectation shown.
    result = "white" if rating_a >= rating_b else "black"
    event = {
        "system": system,
        "event": {"id": "calculator", "date": "2000-01-01", "board": board},
        "players": players,
        "games": [{"round": 1, "white": "a", "black": "b", "result": result, "handicap": handicap}],
    }
    title = system_title(system)
    try:
        output = rate_json(event)
    except BadInput:
        return Expectation(system, title, rating_a, rating_b, handicap, None, None, note)
    found: dict[str, float | None] = {}
    for player in output["players"]:  # type: ignore[union-attr]
        games = player.get("games") or []  # type: ignore[union-attr]
        found[player["id"]] = games[0].get("expected") if games else None  # type: ignore[index]
    return Expectation(
        system, title, rating_a, rating_b, handicap, found.get("a"), found.get("b"), note
    )
