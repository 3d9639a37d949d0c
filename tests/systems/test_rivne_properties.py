"""`rivne` properties (hypothesis) and a fuzz of the JSON boundary (rivne.md Part B)."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import json
from typing import Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import BadInput, rate_json
from ratings.systems.grades import ALL_GRADES, Grade
from ratings.systems.model import JSON, Event, EventInput, EventOutput, Game, Player, Result
from ratings.systems.rivne import rating as rivne

from .examples import load_examples
from .fuzzing import JSON_VALUES, mutated_copy

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None)
FUZZ_SETTINGS = settings(max_examples=200, deadline=None)

PLAYER_IDS = [f"p{i}" for i in range(8)]
RESULTS: list[Result] = ["white", "black", "draw"]
Board = Literal[19, 13, 9]
HISTORIES: list[JSON] = [None, {"above_100": True}, {"above_100": False}]


def low_and_high(low: float, high: float) -> st.SearchStrategy[float]:
    """Ratings from `low` to `high`, with the 100 boundary and values below it well represented."""
    return st.one_of(
        st.floats(min_value=low, max_value=high, allow_nan=False),
        st.sampled_from([v for v in (0.0, 50.0, 95.0, 99.9, 100.0, 104.0, 2700.0) if low <= v]),
        st.floats(min_value=max(low, 0.0), max_value=max(low, 0.0) + 150, allow_nan=False),
    )


@st.composite
def events(
    draw: st.DrawFn,
    ratings: st.SearchStrategy[float] | None = None,
    handicap: bool = True,
    max_rounds: int = 6,
    board: Board | None = None,
    params: dict[str, JSON] | None = None,
) -> EventInput:
    """A random event in which nobody plays twice in a round (what the contract admits)."""
    count = draw(st.integers(min_value=2, max_value=len(PLAYER_IDS)))
    ids = PLAYER_IDS[:count]
    rating_strategy = ratings if ratings is not None else low_and_high(0.0, 2700.0)
    players = tuple(
        Player(
            id=pid,
            rating=draw(st.one_of(rating_strategy, st.none())),
            grade=draw(st.one_of(st.none(), st.sampled_from(ALL_GRADES))),
            history=draw(st.sampled_from(HISTORIES)),
        )
        for pid in ids
    )
    games: list[Game] = []
    for round_number in range(1, draw(st.integers(min_value=1, max_value=max_rounds)) + 1):
        order = draw(st.permutations(ids))
        pairs = draw(st.integers(min_value=0, max_value=count // 2))
        for i in range(pairs):
            stones = draw(st.integers(min_value=1, max_value=9)) if handicap else 0
            games.append(
                Game(
                    round=round_number,
                    white=order[2 * i],
                    black=order[2 * i + 1],
                    result=draw(st.sampled_from(RESULTS)),
                    handicap=stones if handicap and draw(st.booleans()) else 0,
                )
            )
    chosen_board: Board = board if board is not None else draw(st.sampled_from([19, 13, 9]))
    return EventInput(
        system="rivne",
        params=params or {},
        event=Event(id="prop", date=dt.date(2024, 5, 1), board=chosen_board),
        players=players,
        games=tuple(games),
    )


def recalculations(output: EventOutput) -> int:
    """How many recalculations ran: the notes say "recalculation k: <player> …" per player."""
    numbers = [
        int(note.split(":")[0].split()[1])
        for note in output.notes
        if note.startswith("recalculation ")
    ]
    return max(numbers, default=0)


def stopped(output: EventOutput) -> bool:
    return any("max_recalculations" in note for note in output.notes)


# --- The anomaly loop -----------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(events())
def test_the_anomaly_loop_ends_with_a_normal_result(event: EventInput) -> None:
    output = rivne.rate(event)
    assert not stopped(output)
    assert recalculations(output) <= 1000
    if any(game.handicap >= 1 for game in event.games):
        return
    for result in output.players:
        if not result.games:
            continue
        assert result.before is not None and result.change is not None
        n = len(result.games)
        ceiling = 0.45 * n * rivne.k1(result.before) * (1 + (3100 - result.before) / 50000)
        assert not (result.change > 0 and result.change > ceiling)


@PROPERTY_SETTINGS
@given(
    events(ratings=low_and_high(-100.0, 5000.0), handicap=False),
    st.integers(min_value=0, max_value=5),
    st.floats(min_value=1e-6, max_value=0.45),
)
def test_the_guard_bounds_the_loop(event: EventInput, guard: int, factor: float) -> None:
    params: dict[str, JSON] = {"max_recalculations": guard, "anomaly_factor": factor}
    output = rivne.rate(dataclasses.replace(event, params=params))
    assert recalculations(output) <= guard
    if recalculations(output) < guard:
        assert not stopped(output)


# --- Order, boards, the rules under 100 ----------------------------------------------------------


@PROPERTY_SETTINGS
@given(events(), st.randoms(use_true_random=False))
def test_order_of_games_within_a_round_does_not_matter(event: EventInput, random: Any) -> None:
    # Each player plays at most once per round here; with two games in one round (D4) the order
    # does matter when the first takes him to the floor (test_d4_… in test_rivne_decisions).
    shuffled = list(event.games)
    random.shuffle(shuffled)
    shuffled.sort(key=lambda game: game.round)  # stable: rounds stay together, order inside changes
    other = dataclasses.replace(event, games=tuple(shuffled))
    assert rivne.rate(other) == rivne.rate(event)


@PROPERTY_SETTINGS
@given(
    events(ratings=st.floats(min_value=300, max_value=3000), max_rounds=1, board=19),
    st.floats(min_value=0.01, max_value=1),
    st.floats(min_value=0.01, max_value=1),
)
def test_board_coefficient_scales_formula_5_changes(
    event: EventInput, kd_13: float, kd_9: float
) -> None:
    # One round, every start at least 300 (so no floor, no rules below 100), first calculation.
    players = tuple(
        Player(id=p.id, rating=p.rating if p.rating is not None else 1000.0, grade=p.grade)
        for p in event.players
    )
    single: dict[str, JSON] = {"max_recalculations": 0}
    scaled: dict[str, JSON] = {**single, "kd_13": kd_13, "kd_9": kd_9}

    def rated(board: Board, params: dict[str, JSON]) -> EventOutput:
        block = Event(id="prop", date=dt.date(2024, 5, 1), board=board)
        return rivne.rate(dataclasses.replace(event, players=players, event=block, params=params))

    full = rated(19, single)
    cases = [(rated(13, scaled), kd_13), (rated(9, scaled), kd_9), (rated(13, single), 0.5)]
    for output, kd in cases:
        for big, small in zip(full.players, output.players, strict=True):
            for g_big, g_small in zip(big.games, small.games, strict=True):
                assert g_small.expected == g_big.expected  # SE does not depend on the board
                # `change` is new − old, so it carries the rounding of one addition.
                assert abs(g_small.change - kd * g_big.change) <= 1e-9


@PROPERTY_SETTINGS
@given(events(ratings=low_and_high(0.0, 400.0)))
def test_under_100_rules_never_give_a_negative_rating(event: EventInput) -> None:
    output = rivne.rate(event)
    for result in output.players:
        assert result.before is not None and result.after is not None
        assert result.after >= 0
        if result.before < 100:
            assert result.after >= result.before  # below 100 nobody loses points
            low_games = [g for g in result.games if g.expected is None]
            assert all(g.change > 0 for g in low_games)
        else:
            assert result.after >= 100  # once at or above 100, never below
        if result.after >= 100:
            assert result.history == {"above_100": True}


@PROPERTY_SETTINGS
@given(events())
def test_game_changes_sum_to_the_total(event: EventInput) -> None:
    for result in rivne.rate(event).players:
        assert result.change is not None and result.after is not None
        total = sum(game.change for game in result.games)
        assert abs(total - result.change) <= 1e-9 * max(1.0, abs(result.after))


# --- Fuzz of the JSON boundary ------------------------------------------------------------------

EXAMPLE_INPUTS = [event for _, event, _ in load_examples("rivne")]


def assert_only_bad_input(document: Any) -> None:
    try:
        result = rate_json(document)
    except BadInput:
        return
    json.dumps(result, allow_nan=False)  # a result is always plain, finite JSON


@FUZZ_SETTINGS
@given(st.sampled_from(EXAMPLE_INPUTS), st.data())
def test_mutated_examples_raise_only_bad_input(example: dict[str, Any], data: Any) -> None:
    assert_only_bad_input(mutated_copy(data.draw, example))


@FUZZ_SETTINGS
@given(
    st.fixed_dictionaries(
        {"system": st.just("rivne"), "event": JSON_VALUES, "players": JSON_VALUES},
        optional={"games": JSON_VALUES, "params": JSON_VALUES},
    )
)
def test_random_documents_raise_only_bad_input(document: dict[str, Any]) -> None:
    assert_only_bad_input(document)


@FUZZ_SETTINGS
@given(
    st.sampled_from(EXAMPLE_INPUTS),
    st.dictionaries(st.sampled_from(sorted(rivne.DEFAULT_PARAMS)), JSON_VALUES, max_size=3),
    st.sampled_from([None, {}, {"above_100": True}, {"above_100": "x"}, [], "x", 3]),
)
def test_random_params_and_history_raise_only_bad_input(
    example: dict[str, Any], params: dict[str, Any], history: Any
) -> None:
    document = copy.deepcopy(example)
    document["params"] = params
    document["players"][0]["history"] = history
    if isinstance(params.get("max_recalculations"), int) and params["max_recalculations"] > 50:
        params["max_recalculations"] = 50  # keep the run short; the bound itself is tested above
    assert_only_bad_input(document)


def test_grade_index_matches_the_grade_for_a_start_at_its_lower_bound() -> None:
    # B3: a missing grade is derived from the start; at each grade's own start value the
    # derived index must be that grade's (20k … 7d; below 20k the 10-point steps).
    for grade in ALL_GRADES:
        if grade.kind == "p" or (grade.kind == "d" and grade.level > 7):
            continue
        start = rivne.start_of_grade(grade)
        assert rivne.grade_index(None, start) == rivne.grade_index(grade, start), str(grade)
    assert rivne.grade_index(Grade.parse("3p"), 0) == rivne.grade_index(Grade.parse("7d"), 0)
