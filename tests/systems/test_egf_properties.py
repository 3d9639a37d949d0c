"""`egf` properties (hypothesis)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import egf, rate_json

RATINGS = st.floats(min_value=-100, max_value=3200, allow_nan=False, allow_infinity=False)
EPSILONS = st.sampled_from([0.0, 0.016, 0.05])
HANDICAPS = st.integers(min_value=0, max_value=9)
PROPERTY = settings(max_examples=200, deadline=None)


@PROPERTY
@given(RATINGS, RATINGS, st.sampled_from(["white", "black"]))
def test_even_game_without_epsilon_changes_have_opposite_signs(
    white: float, black: float, result: str
) -> None:
    players = [
        {"id": "w", "rating": white, "grade": "1k"},
        {"id": "b", "rating": black, "grade": "1k"},
    ]
    games = [{"round": 1, "white": "w", "black": "b", "result": result, "handicap": 0}]
    document = {
        "system": "egf",
        "params": {"epsilon": 0},
        "event": {"id": "e", "date": "2017-01-01"},
        "players": players,
        "games": games,
    }
    changes = [p["games"][0]["change"] for p in rate_json(document)["players"]]
    assert changes[0] * changes[1] < 0


@PROPERTY
@given(RATINGS, RATINGS, st.floats(min_value=0.01, max_value=500), HANDICAPS, EPSILONS)
def test_expectation_monotone_in_rating_difference(
    white: float, black: float, step: float, handicap: int, epsilon: float
) -> None:
    se_white, _ = egf.expectations(white, black, handicap, epsilon)
    stronger_white, _ = egf.expectations(white + step, black, handicap, epsilon)
    assert stronger_white >= se_white
    _, se_black = egf.expectations(white, black, handicap, epsilon)
    _, stronger_black = egf.expectations(white, black + step, handicap, epsilon)
    assert stronger_black >= se_black


@PROPERTY
@given(RATINGS, RATINGS, st.integers(min_value=0, max_value=8), EPSILONS)
def test_expectation_monotone_in_handicap(
    white: float, black: float, handicap: int, epsilon: float
) -> None:
    se_white, se_black = egf.expectations(white, black, handicap, epsilon)
    more_white, more_black = egf.expectations(white, black, handicap + 1, epsilon)
    assert more_black >= se_black
    assert more_white <= se_white


@st.composite
def tournaments(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(min_value=2, max_value=8))
    players = [
        {
            "id": f"p{i}",
            "rating": draw(st.one_of(st.none(), RATINGS)),
            "grade": draw(
                st.sampled_from(["25k", "20k", "12k", "5k", "1k", "1d", "4d", "7d", "3p"])
            ),
        }
        for i in range(count)
    ]
    games = []
    for round_number in range(1, draw(st.integers(min_value=1, max_value=6)) + 1):
        order = draw(st.permutations(range(count)))
        for white, black in zip(order[::2], order[1::2], strict=False):
            games.append(
                {
                    "round": round_number,
                    "white": f"p{white}",
                    "black": f"p{black}",
                    "result": draw(st.sampled_from(["white", "black", "draw"])),
                    "handicap": draw(st.sampled_from([0, 0, 0, 2, 5, 9])),
                }
            )
    return {
        "system": "egf",
        "params": {"epsilon": draw(EPSILONS)},
        "event": {"id": "t", "date": "2017-06-10", "class": draw(st.sampled_from("ABC"))},
        "players": players,
        "games": games,
    }


@PROPERTY
@given(tournaments())
def test_floor_and_max_drop_hold(document: dict[str, Any]) -> None:
    for player in rate_json(document)["players"]:
        assert player["after"] >= egf.FLOOR
        if player["before"] >= egf.FLOOR:
            # the cut comes before storing to 3 decimals, which may move it by half a unit
            assert player["change"] >= -egf.MAX_DROP - 0.0005 - 1e-9


@PROPERTY
@given(tournaments(), st.randoms(use_true_random=False))
def test_game_order_does_not_matter(document: dict[str, Any], rnd: random.Random) -> None:
    shuffled = dict(document, games=rnd.sample(document["games"], len(document["games"])))
    assert rate_json(shuffled) == rate_json(document)
