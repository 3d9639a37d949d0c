"""`uscf` properties (hypothesis) and a fuzz of the JSON boundary."""

from __future__ import annotations

import copy
import datetime as dt
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import BadInput, rate_json, uscf
from ratings.systems.model import Event, EventInput, EventOutput, Game, Player, PlayerOutput

from .examples import load_examples
from .fuzzing import JSON_VALUES, json_paths

PROPERTY_SETTINGS = settings(max_examples=150, deadline=None)
FUZZ_SETTINGS = settings(max_examples=200, deadline=None)

PLAYER_IDS = [f"p{i}" for i in range(6)]

ratings = st.one_of(
    st.none(),
    st.integers(min_value=0, max_value=3200),
    st.floats(min_value=-50, max_value=3200, allow_nan=False),
)


@st.composite
def events(draw: st.DrawFn, min_change: int = 1, crossing: bool = True) -> EventInput:
    count = draw(st.integers(min_value=2, max_value=len(PLAYER_IDS)))
    ids = PLAYER_IDS[:count]
    players = tuple(Player(id=pid, rating=draw(ratings)) for pid in ids)
    pairs = st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True)
    games = draw(
        st.lists(
            st.tuples(
                st.integers(min_value=1, max_value=4),
                pairs,
                st.sampled_from(["white", "black", "draw"]),
            ),
            max_size=20,
        )
    )
    return EventInput(
        system="uscf",
        params={"min_change": min_change, "crossing": crossing},
        event=Event(id="prop", date=dt.date(2002, 3, 4)),
        players=players,
        games=tuple(
            Game(round=rnd, white=w, black=b, result=res)  # type: ignore[arg-type]
            for rnd, (w, b), res in games
        ),
    )


def rating_path(result: PlayerOutput) -> list[tuple[float, float, float]]:
    """(rating before, score, rating after) for each game of a player, from the output."""
    assert result.before is not None
    steps: list[tuple[float, float, float]] = []
    rating = result.before
    for game in result.games:
        # Every rating after a game is a whole number (U7); the float sum only approximates it
        # when the input rating was not whole.
        after = round(rating + game.change)
        assert abs(rating + game.change - after) < 1e-6
        steps.append((rating, game.score, after))
        rating = after
    return steps


@PROPERTY_SETTINGS
@given(events())
def test_rating_never_goes_below_100_nor_below_where_it_arrived(event: EventInput) -> None:
    """U8 (revised): a rating at or above 100 never falls below 100; one that arrives
    below 100 never falls further (a non-integer one only to its whole part, U7)."""
    out = uscf.rate(event)
    for result in out.players:
        for before, _, after in rating_path(result):
            assert after >= (100 if before >= 100 else math.floor(before))
        if result.games and result.before is not None and result.before >= 100:
            assert result.after is not None and result.after >= 100


@PROPERTY_SETTINGS
@given(events())
def test_a_loss_never_raises_any_rating(event: EventInput) -> None:
    """U8 (revised): the floor never lifts a rating, below 100 either."""
    for result in uscf.rate(event).players:
        for before, score, after in rating_path(result):
            if score == 0:
                assert after <= before


@PROPERTY_SETTINGS
@given(st.one_of(events(), events(min_change=16), events(crossing=False)))
def test_a_win_never_lowers_a_rating(event: EventInput) -> None:
    for result in uscf.rate(event).players:
        for before, score, after in rating_path(result):
            if score == 1:
                assert after > before


@PROPERTY_SETTINGS
@given(events(min_change=0))
def test_a_win_never_lowers_an_integer_rating_even_without_minimum(event: EventInput) -> None:
    whole = EventInput(
        system=event.system,
        params=event.params,
        event=event.event,
        players=tuple(
            Player(id=p.id, rating=None if p.rating is None else round(p.rating))
            for p in event.players
        ),
        games=event.games,
    )
    for result in uscf.rate(whole).players:
        for before, score, after in rating_path(result):
            if score == 1:
                assert after >= before


@PROPERTY_SETTINGS
@given(events())
def test_a_loss_never_raises_a_rating_at_or_above_the_floor(event: EventInput) -> None:
    for result in uscf.rate(event).players:
        for before, score, after in rating_path(result):
            if score == 0 and before >= 100:
                assert after <= before


@PROPERTY_SETTINGS
@given(events())
def test_each_game_moves_at_most_32_and_one_category(event: EventInput) -> None:
    for result in uscf.rate(event).players:
        for before, _, after in rating_path(result):
            if before >= 100:
                # |d| <= 32, crossing down at most 24 * 1.33, plus half a point when a
                # non-integer input rating is rounded by its first game (U7).
                assert abs(after - before) <= (32 if float(before).is_integer() else 32.5)
            assert abs(uscf.category(after) - uscf.category(before)) <= 1


@PROPERTY_SETTINGS
@given(events())
def test_output_is_consistent(event: EventInput) -> None:
    out = uscf.rate(event)
    assert out == uscf.rate(event)  # deterministic
    assert [p.id for p in out.players] == [p.id for p in event.players]
    game_count = sum(len(p.games) for p in out.players)
    assert game_count == 2 * len(event.games)
    for result in out.players:
        assert result.after is not None and result.before is not None
        assert result.change == result.after - result.before
        if float(result.before).is_integer():
            assert sum(g.change for g in result.games) == result.change
        else:  # the first game's change is a float; the sum is exact up to float rounding
            assert math.isclose(sum(g.change for g in result.games), result.change, abs_tol=1e-9)
        if result.games:
            assert isinstance(result.after, int)
        assert [g.round for g in result.games] == sorted(g.round for g in result.games)
        for game in result.games:
            assert game.expected is not None and 0 <= game.expected <= 1
    _expectations_are_complementary(out)


def _expectations_are_complementary(out: EventOutput) -> None:
    by_id = {p.id: p for p in out.players}
    for result in out.players:
        for game in result.games:
            twin = [g for g in by_id[game.opponent].games if g.round == game.round]
            assert any(abs((game.expected or 0) + (g.expected or 0) - 1) < 1e-12 for g in twin)


# --- Fuzzing the JSON boundary: anything but BadInput is a bug ---------------------------

EXAMPLE_INPUTS = [given_input for _, given_input, _ in load_examples("uscf")]
INTERESTING_VALUES: st.SearchStrategy[Any] = st.sampled_from(
    [None, True, False, 0, -1, 1.5, 17, 1e308, -1e308, "", "uscf", "p9", [], {}, "2002-02-30"]
)


@st.composite
def mutated_examples(draw: st.DrawFn) -> Any:
    document = copy.deepcopy(draw(st.sampled_from(EXAMPLE_INPUTS)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = json_paths(document)
        path = draw(st.sampled_from(paths[1:] or paths))
        if not path:
            return draw(JSON_VALUES)
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "interesting", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(JSON_VALUES)
        elif action == "interesting":
            parent[path[-1]] = draw(INTERESTING_VALUES)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["params", "start", "floor", "x", "rating"]))] = draw(
                JSON_VALUES
            )
        else:
            parent.append(draw(JSON_VALUES))
    return document


def _rate_or_bad_input(document: Any) -> None:
    try:
        result = rate_json(document)
    except BadInput as error:
        assert str(error)
    else:
        assert result["system"] == document["system"]  # a mutation may pick another system


@FUZZ_SETTINGS
@given(mutated_examples())
def test_mutated_examples_raise_only_bad_input(document: Any) -> None:
    _rate_or_bad_input(document)


@FUZZ_SETTINGS
@given(JSON_VALUES)
def test_random_json_raises_only_bad_input(document: Any) -> None:
    _rate_or_bad_input(document)


@FUZZ_SETTINGS
@given(
    start=st.one_of(st.integers(-(10**30), 10**30), st.floats(-1e308, 1e308), JSON_VALUES),
    floor=st.one_of(st.integers(-(10**30), 10**30), st.floats(-1e308, 1e308), JSON_VALUES),
    min_change=st.one_of(st.integers(-3, 20), JSON_VALUES),
    crossing=st.one_of(st.booleans(), JSON_VALUES),
    rating=st.one_of(st.floats(-2e6, 2e6), st.integers(-(10**7), 10**7), JSON_VALUES),
)
def test_extreme_params_and_ratings_raise_only_bad_input(
    start: Any, floor: Any, min_change: Any, crossing: Any, rating: Any
) -> None:
    document = {
        "system": "uscf",
        "params": {"start": start, "floor": floor, "min_change": min_change, "crossing": crossing},
        "event": {"id": "fuzz", "date": "2002-03-04"},
        "players": [{"id": "a", "rating": rating}, {"id": "b", "rating": None}],
        "games": [
            {"round": 1, "white": "a", "black": "b", "result": "white"},
            {"round": 2, "white": "b", "black": "a", "result": "draw"},
        ],
    }
    _rate_or_bad_input(document)
