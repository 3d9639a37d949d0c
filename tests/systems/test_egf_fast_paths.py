"""`egf`'s speed-ups give exactly what the plain definitions give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import egf
from ratings.systems.model import GameOutput, PlayerOutput
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


def test_game_output_is_a_plain_game_output() -> None:
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
    game = output.players[0].games[0]
    se_white, _ = egf.expectations(2000, 1900, 2, 0.016)
    change = egf.con(2000) * (0.5 - se_white)
    assert game == GameOutput(round=1, opponent="b", score=0.5, expected=se_white, change=change)
    assert type(game) is GameOutput and game.expected == se_white
    after = egf.final_rating(2000.0, change, egf.MAX_DROP, egf.FLOOR)
    assert output.players[0] == PlayerOutput(
        id="w", before=2000.0, after=after, change=after - 2000.0, games=(game,)
    )


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


@FAST
@given(st.text(min_size=1), RATINGS, RATINGS)
def test_rated_player_is_the_named_tuple_with_its_defaults(
    player_id: str, before: float, after: float
) -> None:
    from ratings.systems.model import rated_player

    game = GameOutput(1, "x", 1.0, 0.5, 7.5)
    built = rated_player(player_id, before, after, (game,))
    assert type(built) is PlayerOutput
    assert (
        built._asdict()
        == PlayerOutput(player_id, before, after, after - before, games=(game,))._asdict()
    )
