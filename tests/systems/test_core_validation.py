"""The engine's boundary: every malformed input is one `BadInput` naming the field."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import pytest

from ratings.systems import BadInput, rate_json
from ratings.systems.io import loads

Mutation = Callable[[dict[str, Any]], None]


def valid() -> dict[str, Any]:
    return {
        "system": "egf",
        "params": {"epsilon": 0.016},
        "event": {"id": "t1", "date": "2024-05-01", "class": "A", "board": 19},
        "players": [
            {"id": "p1", "rating": 2400, "grade": "4d", "best_grade": "4d"},
            {"id": "p2", "rating": 2300.5, "grade": "3d", "birth_date": "1990-07-01"},
            {"id": "p3", "rating": None, "grade": "1k", "history": None},
        ],
        "games": [
            {"round": 1, "white": "p1", "black": "p2", "result": "white", "handicap": 0},
            {"round": 2, "white": "p3", "black": "p1", "result": "draw"},
        ],
    }


def setter(path: tuple[Any, ...], value: Any) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        target: Any = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return mutate


def deleter(path: tuple[Any, ...]) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        target: Any = document
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return mutate


def add_game(**game: Any) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        document["games"].append(game)

    return mutate


CASES: list[tuple[str, Mutation, str]] = [
    ("unknown system", setter(("system",), "elo"), "system"),
    ("system not a string", setter(("system",), 1), "system"),
    ("missing system", deleter(("system",)), "system"),
    ("unknown top-level field", setter(("description",), "x"), "input"),
    ("params not an object", setter(("params",), [1]), "params"),
    ("unknown params name", setter(("params", "k_factor"), 10), "params"),
    ("params value NaN", setter(("params", "epsilon"), math.nan), "params.epsilon"),
    ("missing event", deleter(("event",)), "event"),
    ("event not an object", setter(("event",), "t1"), "event"),
    ("event id not a string", setter(("event", "id"), 7), "event.id"),
    ("missing date", deleter(("event", "date")), "event.date"),
    ("bad date", setter(("event", "date"), "2024-02-30"), "event.date"),
    ("date not ISO", setter(("event", "date"), "01.05.2024"), "event.date"),
    ("date compact", setter(("event", "date"), "20240501"), "event.date"),
    ("bad class", setter(("event", "class"), "D"), "event.class"),
    ("bad board", setter(("event", "board"), 18), "event.board"),
    ("board as bool", setter(("event", "board"), True), "event.board"),
    ("official not bool", setter(("event", "official"), "yes"), "event.official"),
    ("participants zero", setter(("event", "participants"), 0), "event.participants"),
    ("participants float", setter(("event", "participants"), 2.5), "event.participants"),
    ("unknown event field", setter(("event", "city"), "Kyiv"), "event"),
    ("players not a list", setter(("players",), {}), "players"),
    ("player not an object", setter(("players", 0), "p1"), "players[0]"),
    ("player id missing", deleter(("players", 1, "id")), "players[1].id"),
    ("player id empty", setter(("players", 1, "id"), ""), "players[1].id"),
    ("duplicate player id", setter(("players", 1, "id"), "p1"), "players[1].id"),
    ("rating a string", setter(("players", 0, "rating"), "2400"), "players[0].rating"),
    ("rating a bool", setter(("players", 0, "rating"), True), "players[0].rating"),
    ("rating NaN", setter(("players", 0, "rating"), math.nan), "players[0].rating"),
    ("rating infinite", setter(("players", 0, "rating"), -math.inf), "players[0].rating"),
    ("rating huge", setter(("players", 0, "rating"), 10**400), "players[0].rating"),
    ("rating missing", deleter(("players", 0, "rating")), "players[0].rating"),
    ("bad grade", setter(("players", 0, "grade"), "10d"), "players[0].grade"),
    ("grade a number", setter(("players", 0, "grade"), 4), "players[0].grade"),
    ("bad best grade", setter(("players", 0, "best_grade"), "dan"), "players[0].best_grade"),
    ("newcomer without grade", deleter(("players", 2, "grade")), "players[2].grade"),
    ("bad birth date", setter(("players", 1, "birth_date"), "1990-7-1"), "players[1].birth_date"),
    ("history not JSON", setter(("players", 2, "history"), {"a": {1, 2}}), "players[2].history.a"),
    ("history NaN", setter(("players", 2, "history"), [0.5, math.inf]), "players[2].history[1]"),
    ("unknown player field", setter(("players", 0, "name"), "X"), "players[0]"),
    ("games not a list", setter(("games",), None), "games"),
    ("game not an object", setter(("games", 0), ["p1", "p2"]), "games[0]"),
    ("unknown white", setter(("games", 0, "white"), "p9"), "games[0].white"),
    ("unknown black", setter(("games", 1, "black"), "p9"), "games[1].black"),
    ("player id not a string", setter(("games", 0, "white"), 1), "games[0].white"),
    ("self-play", setter(("games", 0, "black"), "p1"), "games[0].black"),
    ("bad result", setter(("games", 0, "result"), "win"), "games[0].result"),
    ("missing result", deleter(("games", 0, "result")), "games[0].result"),
    ("negative handicap", setter(("games", 0, "handicap"), -1), "games[0].handicap"),
    ("handicap over 9", setter(("games", 0, "handicap"), 10), "games[0].handicap"),
    ("handicap a float", setter(("games", 0, "handicap"), 2.0), "games[0].handicap"),
    ("handicap a bool", setter(("games", 0, "handicap"), True), "games[0].handicap"),
    ("round zero", setter(("games", 0, "round"), 0), "games[0].round"),
    ("round a string", setter(("games", 0, "round"), "1"), "games[0].round"),
    ("round missing", deleter(("games", 0, "round")), "games[0].round"),
    ("unknown game field", setter(("games", 0, "komi"), 6.5), "games[0]"),
    (
        "player twice in a round",
        add_game(round=1, white="p3", black="p2", result="black"),
        "games[2].black",
    ),
]


def test_the_valid_document_is_valid() -> None:
    assert len(rate_json(valid())["players"]) == 3


@pytest.mark.parametrize(("name", "mutate", "field"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_names_the_field(name: str, mutate: Mutation, field: str) -> None:
    document = valid()
    mutate(document)
    with pytest.raises(BadInput) as error:
        rate_json(document)
    assert error.value.field == field
    assert str(error.value).startswith(f"{field}: ")
    assert "\n" not in str(error.value)


def test_error_message_reads_like_the_contract() -> None:
    document = valid()
    document["games"][1]["white"] = "p9"
    with pytest.raises(BadInput, match=r"^games\[1\]\.white: unknown player id 'p9'$"):
        rate_json(document)


@pytest.mark.parametrize("value", [None, [], "event", 3, 2.5, True])
def test_input_must_be_an_object(value: Any) -> None:
    with pytest.raises(BadInput) as error:
        rate_json(value)
    assert error.value.field == "input"


def test_optional_fields_may_be_left_out() -> None:
    document = valid()
    del document["params"]
    for key in ("class", "board"):
        del document["event"][key]
    document["params"] = None
    result = rate_json(document)
    assert [p["id"] for p in result["players"]] == ["p1", "p2", "p3"]


def test_input_is_not_modified() -> None:
    document = valid()
    snapshot = copy.deepcopy(document)
    rate_json(document)
    assert document == snapshot


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "malformed JSON at line 1"),
        ('{"system": NaN}', "NaN"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"x": ' + "9" * 5000 + "}", "malformed JSON"),
    ],
)
def test_loads_rejects_malformed_json(text: str | bytes, fragment: str) -> None:
    with pytest.raises(BadInput) as error:
        loads(text)
    assert error.value.field == "input"
    assert fragment in error.value.message


def test_a_system_may_allow_several_games_per_round() -> None:
    import dataclasses

    from ratings.systems.io import parse_event
    from ratings.systems.registry import SYSTEMS

    document = valid()
    add_game(round=1, white="p3", black="p2", result="black")(document)
    batch = dataclasses.replace(SYSTEMS["egf"], several_games_per_round=True)
    _, event = parse_event(document, {**SYSTEMS, "egf": batch})
    assert [(g.round, g.white, g.black) for g in event.games][-1] == (1, "p3", "p2")
    with pytest.raises(BadInput):
        parse_event(document, SYSTEMS)
