"""`ufgo` properties (hypothesis): the anomaly loop terminates at a fixpoint, game order
inside a round is irrelevant, the board divisors act exactly as 4.8 says, the rules
under 100 never produce a negative rating, and malformed input only raises BadInput."""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.systems import BadInput, rate_json
from ratings.systems.ufgo import rating as ufgo

from .examples import load_examples
from .fuzzing import JSON_VALUES, mutated_copy

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(PROPERTY, max_examples=60)  # four ratings of the event per example
RESULTS = ("white", "black", "draw")
GRADES = ("30k", "25k", "20k", "15k", "10k", "5k", "1k", "1d", "3d", "7d", "9d", "2p")


def ratings(low: int, high: int) -> st.SearchStrategy[float | int]:
    return st.one_of(
        st.integers(low, high),
        st.integers(low * 10, high * 10).map(lambda tenths: tenths / 10),
        st.integers(low * 100, high * 100).map(lambda hundredths: hundredths / 100),
    )


@st.composite
def tournaments(
    draw: st.DrawFn,
    low: int = -100,
    high: int = 3000,
    max_players: int = 8,
    max_rounds: int = 6,
    boards: tuple[int, ...] = (19, 13, 9),
    newcomers: bool = True,
) -> dict[str, Any]:
    """A contract event: each player at most once per round (the contract's rule)."""
    n = draw(st.integers(2, max_players))
    players: list[dict[str, Any]] = []
    for i in range(n):
        if newcomers and draw(st.integers(0, 9)) == 0:
            players.append({"id": f"p{i}", "rating": None, "grade": draw(st.sampled_from(GRADES))})
        else:
            players.append({"id": f"p{i}", "rating": draw(ratings(low, high))})
    games = []
    for round_number in range(1, draw(st.integers(1, max_rounds)) + 1):
        order = draw(st.permutations(range(n)))
        for j in range(draw(st.integers(0, n // 2))):
            games.append(
                {
                    "round": round_number,
                    "white": f"p{order[2 * j]}",
                    "black": f"p{order[2 * j + 1]}",
                    "result": draw(st.sampled_from(RESULTS)),
                }
            )
    return {
        "system": "ufgo",
        "event": {
            "id": "h",
            "date": "2024-03-10",
            "board": draw(st.sampled_from(boards)),
            "official": draw(st.booleans()),
        },
        "players": players,
        "games": games,
    }


def recalculations(result: dict[str, Any]) -> int:
    numbers = [int(n.split()[1].rstrip(":")) for n in result["notes"] if n.startswith("recalc")]
    return max(numbers, default=0)


def guard_fired(result: dict[str, Any]) -> bool:
    return any(note.startswith("stopped after") for note in result["notes"])


def exact_rounds(document: dict[str, Any]) -> list[tuple[int, list[ufgo.Pairing]]]:
    index = {p["id"]: i for i, p in enumerate(document["players"])}
    by_round: dict[int, list[ufgo.Pairing]] = {}
    for game in document["games"]:
        s2 = {"white": 2, "draw": 1, "black": 0}[game["result"]]
        by_round.setdefault(game["round"], []).append(
            (index[game["white"]], index[game["black"]], s2)
        )
    return sorted(by_round.items())


# --- termination ----------------------------------------------------------------------------


@PROPERTY
@given(tournaments())
def test_anomaly_loop_ends_at_a_fixpoint(document: dict[str, Any]) -> None:
    """With the default guard the loop ends by itself on ratings up to 3000 (D16), and the
    last calculation, rerun from the reported `before` values, has no anomalous player."""
    result = rate_json(document)
    assert not guard_fired(result)
    board = document["event"]["board"]
    rules = ufgo.make_rules({}, board, document["event"]["official"])
    starts = [ufgo.exact(p["before"]) for p in result["players"]]
    calc = ufgo.calculate(starts, exact_rounds(document), rules)
    assert ufgo.find_anomalies(calc) == []
    assert [float(calc.after(i)) for i in range(len(starts))] == [
        p["after"] for p in result["players"]
    ]
    flagged = {note.split()[2] for note in result["notes"] if note.startswith("recalc")}
    assert flagged == {p["id"] for p in result["players"] if p["anomalous"]}


@PROPERTY
@given(tournaments(low=0, high=1_000_000, max_rounds=3), st.integers(0, 4))
def test_guard_bounds_the_number_of_recalculations(document: dict[str, Any], limit: int) -> None:
    document["params"] = {"max_recalculations": limit}
    result = rate_json(document)
    assert recalculations(result) <= limit
    if guard_fired(result):
        assert recalculations(result) == limit


# --- order ----------------------------------------------------------------------------------


@PROPERTY
@given(tournaments(), st.randoms(use_true_random=False))
def test_order_of_games_and_colours_within_a_round_does_not_matter(
    document: dict[str, Any], rng: random.Random
) -> None:
    shuffled = copy.deepcopy(document)
    rng.shuffle(shuffled["games"])
    for game in shuffled["games"]:
        if rng.random() < 0.5:  # swap colours, keep the winner (handicap is ignored, D17)
            game["white"], game["black"] = game["black"], game["white"]
            game["result"] = {"white": "black", "black": "white", "draw": "draw"}[game["result"]]
    assert rate_json(shuffled) == rate_json(document)


# --- board divisors (4.8, D9) ---------------------------------------------------------------

DIVISORS = st.sampled_from([1, 2, 2.5, 3, 4, 7])


def on_board(document: dict[str, Any], board: int, **params: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["event"]["board"] = board
    changed["params"] = params
    return rate_json(changed)


@HEAVY
@given(tournaments(low=1000, high=3000, max_players=6, max_rounds=4, newcomers=False), DIVISORS)
def test_only_the_divisor_differs_between_boards_above_100(
    document: dict[str, Any], divisor: float
) -> None:
    """Nobody can fall from 1000 to 100 in four rounds, so formula (1) rates every game:
    a 13x13 and a 9x9 event with the same divisor are the same event, and 13x13 with
    divisor 1 is 19x19."""
    assert on_board(document, 13, divisor_13=divisor) == on_board(document, 9, divisor_9=divisor)
    assert on_board(document, 13, divisor_13=1) == on_board(document, 19)


@PROPERTY
@given(tournaments(low=200, high=3000, max_rounds=1, newcomers=False))
def test_one_round_changes_are_the_19x19_change_divided_then_rounded(
    document: dict[str, Any],
) -> None:
    document["players"] = [{**p, "rating": round(p["rating"])} for p in document["players"]]
    by_board = {b: on_board(document, b, max_recalculations=0) for b in (19, 13, 9)}
    for i, player in enumerate(by_board[19]["players"]):
        for j, game in enumerate(player["games"]):
            full = Fraction(repr(game["change"]))
            for board, divisor in ((13, 2), (9, 3)):
                change = by_board[board]["players"][i]["games"][j]["change"]
                assert Fraction(repr(change)) == ufgo.round1(full / divisor)


@PROPERTY
@given(tournaments(low=-100, high=700, max_rounds=1, newcomers=False), DIVISORS)
def test_divisors_do_not_touch_the_rules_below_100(
    document: dict[str, Any], divisor: float
) -> None:
    reference = on_board(document, 13, max_recalculations=0)
    other = on_board(document, 13, max_recalculations=0, divisor_13=divisor)
    starts = {p["id"]: p["before"] for p in reference["players"]}
    for mine, theirs in zip(reference["players"], other["players"], strict=True):
        for game, other_game in zip(mine["games"], theirs["games"], strict=True):
            if starts[mine["id"]] < 100 or starts[game["opponent"]] < 100:
                assert game == other_game


# --- the integer transcription of `move` (B5 step 3) ----------------------------------------


def reference_move(r: Fraction, delta: Fraction, low: bool) -> Fraction:
    """`move` exactly as printed in spec B5, on Fractions."""
    if low:
        if r < 100:
            t = r + delta
            return t if t < 100 else 100 + 10 * (t - 100)
        return r + 10 * delta
    if r >= 100:
        t = r + delta
        return t if t >= 100 else 100 + (t - 100) / 10
    t = r + delta / 10
    return t if t < 100 else 100 + 10 * (t - 100)


FRACTIONS = st.builds(
    Fraction, st.integers(-300_000, 300_000), st.sampled_from([1, 2, 3, 10, 100, 7])
)


@settings(max_examples=300, deadline=None)
@given(FRACTIONS, FRACTIONS, st.booleans())
def test_step_is_round1_of_the_spec_move(rating: Fraction, delta: Fraction, low: bool) -> None:
    if low and rating >= 100:
        delta = abs(delta)  # a change below 100 is never negative (5.1-5.3)
    assert ufgo.step(rating, delta, low) == ufgo.round1(reference_move(rating, delta, low))


# --- under 100 (section 5) ------------------------------------------------------------------


@PROPERTY
@given(tournaments(low=0, high=700))
def test_rules_under_100_never_give_a_negative_rating(document: dict[str, Any]) -> None:
    result = rate_json(document)
    for player in result["players"]:
        assert player["before"] >= 0 and player["after"] >= 0
        rating = Fraction(repr(player["before"]))
        for game in player["games"]:
            change = Fraction(repr(game["change"]))
            if rating < 100:  # 5.1 / 5.3: at least the +1 of a loss, less the 0.1 rounding
                assert change >= Fraction(95, 100)
            rating += change
            assert rating >= 0


@PROPERTY
@given(tournaments())
def test_game_changes_add_up_to_the_unrounded_result(document: dict[str, Any]) -> None:
    """B7: Σ games[].change = R_last − before, and `after` is R_last rounded half up."""
    for player in rate_json(document)["players"]:
        before = Fraction(repr(player["before"]))
        last = before + sum(Fraction(repr(g["change"])) for g in player["games"])
        if player["games"]:
            assert player["after"] == ufgo.round_integer(last)
            assert type(player["after"]) is int
        else:
            assert player["after"] == player["before"] and player["change"] == 0


# --- fuzzing the boundary -------------------------------------------------------------------

EXAMPLE_INPUTS = [given_input for _, given_input, _ in load_examples("ufgo")]


def _rate_or_bad_input(document: Any) -> None:
    try:
        result = rate_json(document)
    except BadInput:
        return
    assert isinstance(result, dict) and result["system"] == "ufgo"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(EXAMPLE_INPUTS), st.data())
def test_mutated_examples_raise_only_bad_input(base: dict[str, Any], data: st.DataObject) -> None:
    _rate_or_bad_input(mutated_copy(data.draw, base))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(EXAMPLE_INPUTS),
    st.dictionaries(st.sampled_from(sorted(ufgo.DEFAULT_PARAMS)), JSON_VALUES, max_size=4),
)
def test_any_params_raise_only_bad_input(base: dict[str, Any], params: dict[str, Any]) -> None:
    document = copy.deepcopy(base)
    document["params"] = params
    _rate_or_bad_input(document)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(EXAMPLE_INPUTS),
    st.dictionaries(
        st.sampled_from(
            [
                "k3_cap_low",
                "k3_cap_high",
                "k3_cap_threshold",
                "anomaly_factor",
                "divisor_13",
                "divisor_9",
            ]
        ),
        st.floats(min_value=1e-300, max_value=1e300) | st.integers(1, 10**20),
        max_size=6,
    ),  # fmt: skip
)
def test_extreme_but_valid_params_still_give_a_result(
    base: dict[str, Any], params: dict[str, Any]
) -> None:
    document = copy.deepcopy(base)
    document["params"] = params
    _rate_or_bad_input(document)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_random_documents_raise_only_bad_input(document: Any) -> None:
    if isinstance(document, dict):
        document.setdefault("system", "ufgo")
    _rate_or_bad_input(document)
