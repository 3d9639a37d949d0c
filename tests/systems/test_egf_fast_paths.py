"""`egf`'s speed-ups give exactly what the plain definitions give."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import egf
from ratings.systems.model import GameOutput
from ratings.systems.numeric import interpolate, round_half_away

FAST = settings(max_examples=300, deadline=None)
RATINGS = st.floats(min_value=-500, max_value=3500, allow_nan=False) | st.integers(-500, 3500)


@FAST
@given(RATINGS)
def test_indexed_table_lookup_equals_interpolate(rating: float) -> None:
    assert egf.con(rating) == interpolate(egf.CON_TABLE, rating)
    assert egf.a_parameter(rating) == interpolate(egf.A_TABLE, rating)


def test_table_lookup_at_every_knot_and_next_to_it() -> None:
    for knot, _ in egf.CON_TABLE:
        for x in (knot - 1e-9, knot, knot + 1e-9, knot + 50):
            assert egf.con(x) == interpolate(egf.CON_TABLE, x)
            assert egf.a_parameter(x) == interpolate(egf.A_TABLE, x)


@FAST
@given(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
    | st.integers(-(10**9), 10**9).map(lambda n: n / 2000)  # many exact ties
    | st.integers(-(10**9), 10**9).map(lambda n: n / 10000)
)
def test_store_equals_round_half_away(rating: float) -> None:
    assert egf.store(rating) == round_half_away(rating, 3)


def test_fast_game_output_is_a_plain_game_output() -> None:
    assert tuple(f.name for f in dataclasses.fields(GameOutput)) == egf._GAME_FIELDS
    players = [
        {"id": "w", "rating": 2000, "grade": "1k"},
        {"id": "b", "rating": 1900, "grade": "2k"},
    ]
    from ratings.systems.io import parse_event
    from ratings.systems.registry import SYSTEMS

    document = {
        "system": "egf",
        "event": {"id": "e", "date": "2017-01-01"},
        "players": players,
        "games": [{"round": 1, "white": "w", "black": "b", "result": "draw", "handicap": 2}],
    }
    output = egf.rate(parse_event(document, SYSTEMS)[1])
    fast = output.players[0].games[0]
    plain = GameOutput(fast.round, fast.opponent, fast.score, fast.expected, fast.change)
    assert fast == plain and hash(fast) == hash(plain)
    assert (fast.round, fast.opponent, fast.score) == (1, "b", 0.5)
    se_white, _ = egf.expectations(2000, 1900, 2, 0.016)
    assert fast.expected == se_white


def test_hot_loop_equals_expectations_function() -> None:
    from ratings.systems import rate_json

    for white, black, handicap in [
        (2000, 1900, 0),
        (1850, 2400, 5),
        (100, 2900, 9),
        (-5e5, 5e5, 0),
    ]:
        document = {
            "system": "egf",
            "event": {"id": "e", "date": "2017-01-01"},
            "players": [
                {"id": "w", "rating": white, "grade": "1k"},
                {"id": "b", "rating": black, "grade": "1k"},
            ],
            "games": [
                {"round": 1, "white": "w", "black": "b", "result": "white", "handicap": handicap}
            ],
        }
        result = rate_json(document)
        expected = egf.expectations(white, black, handicap, egf.EPSILON)
        assert tuple(p["games"][0]["expected"] for p in result["players"]) == expected


def test_fast_player_output_is_a_plain_player_output() -> None:
    from ratings.systems.model import PlayerOutput

    assert tuple(f.name for f in dataclasses.fields(PlayerOutput)) == egf._PLAYER_FIELDS
    game = GameOutput(1, "b", 1.0, 0.4, 9.0)
    fast = egf._player_output("w", 2000.0, 2009.0, (game,))
    plain = PlayerOutput(id="w", before=2000.0, after=2009.0, change=9.0, games=(game,))
    assert fast == plain and hash(fast) == hash(plain)
