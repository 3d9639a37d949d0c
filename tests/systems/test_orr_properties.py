"""Properties of `orr` (hypothesis) and a fuzz of its input boundary.

- a newcomer's start estimate lies inside his corridor;
- the tournament coefficient Kt stays within 8..25;
- an unsettled player becomes settled exactly when both conditions hold;
- random or mutated input never raises anything but `BadInput`.
"""

from __future__ import annotations

import contextlib
import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.systems import rate_json
from ratings.systems.model import BadInput
from ratings.systems.orr import rating as orr
from ratings.systems.orr.newcomers import (
    RatedShowing,
    corridor,
    start_estimate,
    tournament_coefficient,
)
from ratings.systems.orr.rating import TournamentWork

from .examples import load_examples
from .fuzzing import JSON_VALUES, mutated_copy
from .orr_builders import as_input, event, game, player, stored

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RESULTS = ("white", "black", "draw")


# --- Generators -----------------------------------------------------------------------------
ratings = st.one_of(
    st.none(),
    st.integers(-500, 3000),
    st.integers(-1000, 6000).map(lambda half_points: half_points / 2),
)
birth_dates = st.one_of(
    st.none(), st.dates(min_value=__import__("datetime").date(1950, 1, 1)).map(str)
)
stored_games = st.lists(
    st.tuples(st.integers(0, 2500), st.sampled_from([0, 0.5, 1])), min_size=0, max_size=14
)


@st.composite
def tournaments(draw: st.DrawFn) -> dict[str, Any]:
    """A valid orr event: 2-10 players, up to 12 rounds, nobody twice in a round."""
    count = draw(st.integers(2, 10))
    players = []
    for i in range(count):
        rating = draw(ratings)
        history = None
        if rating is not None and draw(st.booleans()):
            history = stored(*draw(stored_games), events=draw(st.integers(1, 3)))
        players.append(player(f"p{i}", rating, draw(birth_dates), history))
    games = []
    for round_number in range(1, draw(st.integers(1, 12)) + 1):
        order = draw(st.permutations(range(count)))
        for a, b in zip(order[::2], order[1::2], strict=False):
            if draw(st.integers(0, 4)):
                result = draw(st.sampled_from(RESULTS))
                games.append(game(round_number, f"p{a}", f"p{b}", result))
    participants = draw(st.one_of(st.none(), st.integers(1, 400)))
    return event(players, games, participants=participants)


# --- PD rounding ------------------------------------------------------------------------------
@SETTINGS
@given(st.floats(0, 1))
def test_pd_rounding_matches_half_up_on_the_decimal(pd: float) -> None:
    decimal = Decimal(repr(pd)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert orr._half_up_hundredths(pd) == int(decimal * 100)


# --- Start estimate inside the corridor -------------------------------------------------------
@SETTINGS
@given(
    kt=st.integers(8, 25),
    age_tenths=st.integers(10, 1000),
    games=st.integers(1, 96),
    data=st.data(),
)
def test_start_estimate_lies_inside_the_corridor(
    kt: int, age_tenths: int, games: int, data: st.DataObject
) -> None:
    score = Fraction(data.draw(st.integers(0, 2 * games)), 2)
    band = corridor(kt, Fraction(age_tenths, 10), games)
    start = start_estimate(band, games, score)
    assert band.bottom < band.refined_top <= band.top
    assert band.bottom <= start <= band.refined_top


@SETTINGS
@given(tournaments())
def test_every_newcomers_start_estimate_lies_inside_his_corridor(document: dict[str, Any]) -> None:
    work = TournamentWork(as_input(document))
    for found in work.newcomer_estimates(work.coefficient().kt).values():
        assert found.band.bottom <= found.start <= found.band.top


# --- Kt within 8..25 ----------------------------------------------------------------------------
showings = st.builds(
    lambda rating, games, share, age: RatedShowing(
        Fraction(rating), games, Fraction(round(2 * games * share), 2), Fraction(age, 10)
    ),
    st.integers(-1_000_000, 1_000_000),
    st.integers(1, 60),
    st.floats(0, 1),
    st.integers(10, 1000),
)


@SETTINGS
@given(participants=st.integers(1, 1_000_000), rated=st.lists(showings, max_size=30))
def test_kt_stays_within_8_and_25(participants: int, rated: list[RatedShowing]) -> None:
    kt = tournament_coefficient(participants, rated)
    assert 8 <= kt.kt <= 25
    if kt.clamped is not None:
        assert kt.kt <= kt.clamped


@SETTINGS
@given(tournaments())
def test_kt_of_a_whole_event_stays_within_8_and_25(document: dict[str, Any]) -> None:
    assert 8 <= TournamentWork(as_input(document)).coefficient().kt <= 25


# --- Settling ------------------------------------------------------------------------------------
@SETTINGS
@given(
    earlier=stored_games,
    events=st.integers(1, 4),
    scores=st.lists(st.sampled_from(RESULTS), min_size=1, max_size=14),
    settle_games=st.integers(1, 30),
    settle_events=st.integers(1, 5),
    newcomer=st.booleans(),
)
def test_a_rating_settles_exactly_when_both_conditions_hold(
    earlier: list[tuple[int, float]],
    events: int,
    scores: list[str],
    settle_games: int,
    settle_events: int,
    newcomer: bool,
) -> None:
    if newcomer:
        subject = player("u")
        earlier, events = [], 0
        scores = [*scores[:-1], "white"]  # a newcomer must score to be rated
    else:
        subject = player("u", 1200, history=stored(*earlier, events=events))
    opponents = [player(f"o{i}", 1000 + 25 * i) for i in range(len(scores))]
    games = [game(i + 1, "u", f"o{i}", result) for i, result in enumerate(scores)]
    params = {"settle_games": settle_games, "settle_events": settle_events}
    out = {p["id"]: p for p in rate_json(event([subject, *opponents], games, params))["players"]}
    u = out["u"]
    total_games, total_events = len(earlier) + len(scores), events + 1
    settles = total_games >= settle_games and total_events >= settle_events
    assert u["rated"] is True
    assert u["provisional"] is (not settles)
    if settles:
        assert u["history"] is None
    else:
        assert u["history"]["events"] == total_events
        assert len(u["history"]["games"]) == total_games
    assert all(out[f"o{i}"]["provisional"] is False for i in range(len(scores)))


# --- Output invariants on random events -------------------------------------------------------------
@SETTINGS
@given(tournaments())
def test_output_invariants(document: dict[str, Any]) -> None:
    result = rate_json(document)
    json.dumps(result, allow_nan=False)
    games_of = {p["id"]: 0 for p in document["players"]}
    for g in document["games"]:
        games_of[g["white"]] += 1
        games_of[g["black"]] += 1
    for given_player, out in zip(document["players"], result["players"], strict=True):
        assert out["id"] == given_player["id"]
        assert len(out["games"]) == games_of[out["id"]]
        if out["rated"]:
            # An idle rated player keeps his rating as given (D16), which may be a decimal.
            assert type(out["after"]) is int or not out["games"]
            assert out["change"] == out["after"] - out["before"]
        else:
            assert given_player["rating"] is None
            assert (out["after"], out["change"], out["history"]) == (None, None, None)
        if out["provisional"]:
            assert out["history"] is not None


# --- Fuzz: only BadInput may escape -------------------------------------------------------------------
def _rate_or_bad_input(document: object) -> None:
    with contextlib.suppress(BadInput):
        rate_json(document)


SMALL_EXAMPLES = [e for _, e, _ in load_examples("orr") if len(e["games"]) <= 30]


@SETTINGS
@given(data=st.data())
def test_mutated_examples_raise_only_bad_input(data: st.DataObject) -> None:
    _rate_or_bad_input(mutated_copy(data.draw, data.draw(st.sampled_from(SMALL_EXAMPLES))))


@SETTINGS
@given(document=JSON_VALUES)
def test_random_json_raises_only_bad_input(document: Any) -> None:
    _rate_or_bad_input(document)
    _rate_or_bad_input({"system": "orr", "event": document, "players": [], "games": []})


@SETTINGS
@given(tournaments(), JSON_VALUES, JSON_VALUES)
def test_random_stored_games_raise_only_bad_input(
    document: dict[str, Any], rating: Any, score: Any
) -> None:
    entry = {"rating": rating, "score": score}
    for subject in document["players"]:
        subject["history"] = {"events": 1, "games": [entry]}
    _rate_or_bad_input(document)


@SETTINGS
@given(
    tournaments(),
    st.sampled_from(["rating", "history", "birth_date"]),
    JSON_VALUES,
)
def test_random_player_fields_raise_only_bad_input(
    document: dict[str, Any], field: str, value: Any
) -> None:
    document["players"][0][field] = value
    _rate_or_bad_input(document)


@SETTINGS
@given(
    tournaments(),
    st.dictionaries(
        st.sampled_from(["round_pd", "age_min", "age_max", "settle_games", "settle_events"]),
        JSON_VALUES,
    ),
)
def test_random_params_raise_only_bad_input(
    document: dict[str, Any], params: dict[str, Any]
) -> None:
    document["params"] = params
    _rate_or_bad_input(document)
