"""EGF classes from the time control (egf.md §8) at each threshold: at it, and just below.

Class A: adjusted ≥ 75 min with basic ≥ 60 (Fischer: basic ≥ 45); B: 50 / 40 (Fischer 30);
C: 30 / 25 (Fischer 20); below C the EGF does not rate the games. Adjusted time is basic
plus 45 moves of byoyomi, 60 moves of Canadian byoyomi or 120 Fischer increments;
sudden death: the basic time.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.models import Tournament
from tournaments.timecontrol import adjusted_minutes, egf_class_allowed, suggest_egf_class

OT = Tournament.Overtime


@pytest.fixture(autouse=True)
def _english():
    """The reasons are checked in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


def _tournament(kind: str, basic: int, seconds: int = 0, moves: int = 1) -> Tournament:
    return Tournament(
        basic_time_minutes=basic, overtime_kind=kind, overtime_seconds=seconds, overtime_moves=moves
    )


# (overtime, basic minutes, overtime seconds, Canadian moves) → adjusted minutes, class
CASES = [
    # Japanese byoyomi: adjusted = basic + 45 × period / 60
    (OT.BYOYOMI, 60, 20, 1, 75.0, "A"),  # both at A
    (OT.BYOYOMI, 60, 19, 1, 74.25, "B"),  # adjusted just below A
    (OT.BYOYOMI, 59, 30, 1, 81.5, "B"),  # basic just below A
    (OT.BYOYOMI, 41, 12, 1, 50.0, "B"),  # adjusted at B
    (OT.BYOYOMI, 41, 11, 1, 49.25, "C"),
    (OT.BYOYOMI, 40, 30, 1, 62.5, "B"),  # basic at B
    (OT.BYOYOMI, 39, 60, 1, 84.0, "C"),
    (OT.BYOYOMI, 27, 4, 1, 30.0, "C"),  # adjusted at C
    (OT.BYOYOMI, 27, 3, 1, 29.25, None),
    (OT.BYOYOMI, 25, 30, 1, 47.5, "C"),  # basic at C
    (OT.BYOYOMI, 24, 60, 1, 69.0, None),
    # Canadian byoyomi: adjusted = basic + 60 × (block seconds / moves) / 60
    (OT.CANADIAN, 60, 300, 20, 75.0, "A"),
    (OT.CANADIAN, 60, 299, 20, 74.95, "B"),
    (OT.CANADIAN, 59, 600, 20, 89.0, "B"),
    (OT.CANADIAN, 40, 250, 25, 50.0, "B"),
    (OT.CANADIAN, 40, 249, 25, 49.96, "C"),
    (OT.CANADIAN, 39, 600, 20, 69.0, "C"),
    (OT.CANADIAN, 25, 125, 25, 30.0, "C"),
    (OT.CANADIAN, 25, 124, 25, 29.96, None),
    (OT.CANADIAN, 24, 600, 20, 54.0, None),
    # Fischer: adjusted = basic + 120 × increment / 60, with its own basic minimums
    (OT.FISCHER, 45, 15, 1, 75.0, "A"),
    (OT.FISCHER, 45, 14, 1, 73.0, "B"),
    (OT.FISCHER, 44, 60, 1, 164.0, "B"),
    (OT.FISCHER, 30, 10, 1, 50.0, "B"),
    (OT.FISCHER, 30, 9, 1, 48.0, "C"),
    (OT.FISCHER, 29, 60, 1, 149.0, "C"),
    (OT.FISCHER, 20, 5, 1, 30.0, "C"),
    (OT.FISCHER, 20, 4, 1, 28.0, None),
    (OT.FISCHER, 19, 60, 1, 139.0, None),
    # Sudden death: adjusted = basic (overtime seconds, if any are stored, do not count)
    (OT.SUDDEN_DEATH, 75, 30, 1, 75.0, "A"),
    (OT.SUDDEN_DEATH, 74, 30, 1, 74.0, "B"),
    (OT.SUDDEN_DEATH, 50, 0, 1, 50.0, "B"),
    (OT.SUDDEN_DEATH, 49, 0, 1, 49.0, "C"),
    (OT.SUDDEN_DEATH, 30, 0, 1, 30.0, "C"),
    (OT.SUDDEN_DEATH, 29, 0, 1, 29.0, None),
]


@pytest.mark.parametrize(
    ("kind", "basic", "seconds", "moves", "adjusted", "klass"),
    CASES,
    ids=[f"{c[0]}-{c[1]}m-{c[2]}s-{c[3]}mv-{c[5] or 'unrated'}" for c in CASES],
)
def test_egf_class_at_and_below_each_threshold(
    kind: str, basic: int, seconds: int, moves: int, adjusted: float, klass: str | None
) -> None:
    tournament = _tournament(kind, basic, seconds, moves)
    assert adjusted_minutes(tournament) == pytest.approx(adjusted)
    suggestion = suggest_egf_class(tournament)
    assert suggestion.klass == klass
    assert egf_class_allowed(tournament) == klass  # what a recompute asks
    if klass is None:
        assert "below class C" in suggestion.reason
    else:
        assert f"allow class {klass}" in suggestion.reason


def test_fischer_basic_minimums_are_lower_than_byoyomi() -> None:
    """45 minutes of basic time is class A with a Fischer clock, class B with byoyomi."""
    assert suggest_egf_class(_tournament(OT.FISCHER, 45, 60)).klass == "A"
    assert suggest_egf_class(_tournament(OT.BYOYOMI, 45, 60)).klass == "B"


def test_canadian_counts_the_time_per_move_of_a_block() -> None:
    """5 minutes for 25 moves is 12 s a move: 60 moves take 12 minutes."""
    assert adjusted_minutes(_tournament(OT.CANADIAN, 60, 300, 25)) == pytest.approx(72.0)
    assert suggest_egf_class(_tournament(OT.CANADIAN, 60, 300, 25)).klass == "B"
