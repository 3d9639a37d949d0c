"""`egf`: one or a few tests per rule of shared/spec/egf.md."""

from __future__ import annotations

import math
from typing import Any

import pytest

from ratings.systems import BadInput, egf, rate_json
from ratings.systems.grades import Grade


def event(
    players: list[dict[str, Any]],
    games: list[tuple[int, str, str, str, int]],
    klass: str = "A",
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    document: dict[str, Any] = {
        "system": "egf",
        "event": {"id": "t", "date": "2017-06-10", "class": klass},
        "players": players,
        "games": [
            {"round": r, "white": w, "black": b, "result": res, "handicap": h}
            for r, w, b, res, h in games
        ],
    }
    if params is not None:
        document["params"] = params
    return document


def by_id(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {player["id"]: player for player in result["players"]}


# --- §1 grades and the scale ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("grade", "gor"),
    [
        ("30k", 100), ("21k", 100), ("20k", 100), ("19k", 200), ("5k", 1600), ("1k", 2000),
        ("1d", 2100), ("6d", 2600), ("7d", 2700), ("9d", 2900),
        ("1p", 2700), ("2p", 2730), ("9p", 2940),
    ],
)  # fmt: skip
def test_grade_to_gor(grade: str, gor: float) -> None:
    assert egf.grade_to_gor(Grade.parse(grade)) == gor


@pytest.mark.parametrize(
    ("rating", "grade"),
    [
        (2050, "1d"),  # the document's "weak 1d or strong 1k": ties go to the stronger
        (2049.9, "1k"), (2100, "1d"), (2149, "1d"), (2150, "2d"),
        (100, "20k"), (-50, "20k"), (149.9, "20k"), (150, "19k"),
        (2700, "1p"),  # 7d and 1p share 2700: the stronger is 1p
        (2715, "2p"), (2790, "4p"), (3000, "9p"),
    ],
)  # fmt: skip
def test_rating_to_grade_nearest_ties_to_stronger(rating: float, grade: str) -> None:
    assert str(egf.rating_to_grade(rating)) == grade


def test_rating_to_grade_amateur_only() -> None:
    assert str(egf.rating_to_grade(2700, professional=False)) == "7d"
    assert str(egf.rating_to_grade(2790, professional=False)) == "8d"
    assert str(egf.rating_to_grade(3500, professional=False)) == "9d"


def test_grade_round_trip_for_every_rated_grade() -> None:
    for grade in egf._DISPLAY_GRADES:
        if grade.kind == "d" and grade.level >= 7:
            continue  # 7d = 1p, shown as 1p; 8d/9d lie between pro values and are nearest
        assert egf.rating_to_grade(egf.grade_to_gor(grade)) == grade


# --- §2 expectation, §3 con -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "con", "a"),
    [
        (50, 116, 200), (100, 116, 200), (150, 113, 197.5), (320, 104, 189), (1850, 33, 112.5),
        (2300, 18, 90), (2350, 16.5, 87.5), (2700, 10, 70), (3000, 10, 70),
    ],
)  # fmt: skip
def test_table_two(rating: float, con: float, a: float) -> None:
    assert egf.con(rating) == pytest.approx(con)
    assert egf.a_parameter(rating) == pytest.approx(a)


def test_a_is_205_minus_gor_over_20_inside_the_table() -> None:
    for gor in range(100, 2701, 37):
        assert egf.a_parameter(gor) == pytest.approx(205 - gor / 20)


def test_expectations_sum_to_one_minus_epsilon() -> None:
    for white, black, handicap in [(2100, 2400, 0), (1500, 1000, 3), (100, 2900, 9)]:
        se_white, se_black = egf.expectations(white, black, handicap, 0.016)
        assert se_white + se_black == pytest.approx(0.984)


def test_a_comes_from_the_weaker_side_after_handicap() -> None:
    # Document example 5: 1850 takes 5 stones from 2400: adjusted 2300 < 2400, a = a(2300) = 90.
    se_black, se_white = egf.expectations(2400, 1850, 5, 0.0)[::-1]
    assert se_black == pytest.approx(1 / (math.exp(100 / 90) + 1))
    assert round(se_black, 3) == 0.248
    # With 9 stones Black's adjusted 2700 is above White's 2400: White is the weaker side.
    se_white, se_black = egf.expectations(2400, 1850, 9, 0.0)
    assert se_white == pytest.approx(1 / (math.exp(300 / egf.a_parameter(2400)) + 1))


def test_huge_differences_do_not_overflow() -> None:
    se_white, se_black = egf.expectations(-900_000, 900_000, 0, 0.016)
    assert se_white == pytest.approx(-0.008)
    assert se_black == pytest.approx(0.992)


# --- §3 whole tournament, con from own rating, §4 handicap ---------------------------------


def test_ratings_do_not_move_between_rounds() -> None:
    players = [{"id": i, "rating": 2000, "grade": "1k"} for i in ("x", "y", "z")]
    result = by_id(
        rate_json(event(players, [(1, "x", "y", "white", 0), (2, "x", "z", "white", 0)]))
    )
    first, second = result["x"]["games"]
    assert first["expected"] == second["expected"] == pytest.approx(0.492)
    assert first["change"] == second["change"]
    assert result["x"]["after"] == round(2000 + 2 * 27 * (1 - 0.492), 3)


def test_con_uses_own_unadjusted_rating_in_handicap_game() -> None:
    players = [
        {"id": "w", "rating": 2400, "grade": "4d"},
        {"id": "b", "rating": 1850, "grade": "2k"},
    ]
    result = by_id(rate_json(event(players, [(1, "w", "b", "black", 5)], params={"epsilon": 0})))
    assert result["b"]["after"] == 1874.827  # con(1850) = 33, not con(2300) = 18
    assert result["w"]["after"] == 2388.715


# --- §5 after the tournament -----------------------------------------------------------------


def test_class_weights() -> None:
    players = [
        {"id": "x", "rating": 2000, "grade": "1k"},
        {"id": "y", "rating": 2000, "grade": "1k"},
    ]
    changes = {}
    for klass in "ABC":
        result = by_id(rate_json(event(players, [(1, "x", "y", "white", 0)], klass=klass)))
        changes[klass] = result["x"]["games"][0]["change"]
    assert changes["B"] == pytest.approx(0.75 * changes["A"])
    assert changes["C"] == pytest.approx(0.5 * changes["A"])


def test_class_weight_param_override() -> None:
    players = [
        {"id": "x", "rating": 2000, "grade": "1k"},
        {"id": "y", "rating": 2000, "grade": "1k"},
    ]
    games = [(1, "x", "y", "white", 0)]
    plain = by_id(rate_json(event(players, games)))["x"]["games"][0]["change"]
    halved = rate_json(event(players, games, params={"class_weights": {"A": 0.5}}))
    assert by_id(halved)["x"]["games"][0]["change"] == pytest.approx(plain / 2)


def test_floor_and_max_drop_order() -> None:
    # 150 loses heavily: the drop is cut to -100 (-> 50), then the floor lifts it to 100.
    players = [{"id": "s", "rating": 150, "grade": "20k"}] + [
        {"id": f"w{i}", "rating": 100, "grade": "20k"} for i in range(4)
    ]
    games = [(i + 1, "s", f"w{i}", "black", 0) for i in range(4)]
    result = by_id(rate_json(event(players, games)))
    assert sum(g["change"] for g in result["s"]["games"]) < -100
    assert result["s"]["after"] == 100.0
    assert result["s"]["change"] == -50.0


def test_cut_and_floor_are_noted_one_line_each_cap_first() -> None:
    # egf.md §7 (revised): "<id>: weighted change <sum> cut to -<max_drop> (max_drop)" and
    # "<id>: <before + change> raised to <floor> (floor)", in player order, cap first.
    players = [{"id": "s", "rating": 150, "grade": "20k"}] + [
        {"id": f"w{i}", "rating": 100, "grade": "20k"} for i in range(4)
    ]
    games = [(i + 1, "s", f"w{i}", "black", 0) for i in range(4)]
    assert rate_json(event(players, games))["notes"] == [
        "s: weighted change -250.488 cut to -100 (max_drop)",
        "s: 50.000 raised to 100 (floor)",
    ]
    # Both sides of the cut: 1500 loses three to 800s, a weighted -137.874.
    players = [{"id": "s", "rating": 1500, "grade": "6k"}] + [
        {"id": f"w{i}", "rating": 800, "grade": "13k"} for i in range(3)
    ]
    games = [(i + 1, "s", f"w{i}", "black", 0) for i in range(3)]
    cut = rate_json(event(players, games))
    assert cut["notes"] == ["s: weighted change -137.874 cut to -100 (max_drop)"]
    assert by_id(cut)["s"]["after"] == 1400.0
    uncut = rate_json(event(players, games, params={"max_drop": 137.875}))
    assert uncut["notes"] == [] and by_id(uncut)["s"]["after"] == 1362.126
    # Both sides of the floor: 100 who loses is raised back (noted), his winner is not.
    floor = [{"id": "f", "rating": 100, "grade": "20k"}, {"id": "g", "rating": 100, "grade": "20k"}]
    result = rate_json(event(floor, [(1, "f", "g", "black", 0)]))
    # SE 0.5 - 0.016 / 2 = 0.492; 100 + 116 * (0 - 0.492) = 42.928.
    assert result["notes"] == ["f: 42.928 raised to 100 (floor)"]


def test_player_at_floor_who_loses_stays_at_floor() -> None:
    players = [
        {"id": "f", "rating": 100, "grade": "20k"},
        {"id": "g", "rating": 100, "grade": "20k"},
    ]
    result = by_id(rate_json(event(players, [(1, "f", "g", "black", 0)])))
    assert result["f"]["after"] == 100.0
    assert result["g"]["after"] > 100.0


def test_max_drop_and_floor_params() -> None:
    players = [{"id": "s", "rating": 1500, "grade": "6k"}] + [
        {"id": f"w{i}", "rating": 800, "grade": "13k"} for i in range(3)
    ]
    games = [(i + 1, "s", f"w{i}", "black", 0) for i in range(3)]
    capped = by_id(rate_json(event(players, games, params={"max_drop": 50})))
    assert capped["s"]["after"] == 1450.0
    floored = by_id(rate_json(event(players, games, params={"floor": 1480})))
    assert floored["s"]["after"] == 1480.0


def test_after_is_stored_to_three_decimals_half_up() -> None:
    assert egf.final_rating(2000.0, 0.0005, 100, 100) == 2000.001
    assert egf.final_rating(2000.0, 0.00049, 100, 100) == 2000.0
    assert egf.final_rating(2000.0, -0.0005, 100, 100) == 2000.0  # 1999.9995: half up
    assert egf.final_rating(2000.0, -0.00051, 100, 100) == 1999.999


# --- §6 before the tournament -------------------------------------------------------------------


def test_newcomer_starts_from_grade() -> None:
    players = [
        {"id": "n", "rating": None, "grade": "3d"},
        {"id": "o", "rating": 2300, "grade": "3d"},
    ]
    result = by_id(rate_json(event(players, [(1, "n", "o", "draw", 0)])))
    assert result["n"]["before"] == 2300.0


def test_newcomer_without_grade_is_bad_input() -> None:
    players = [{"id": "n", "rating": None}, {"id": "o", "rating": 2300, "grade": "3d"}]
    with pytest.raises(BadInput) as error:
        rate_json(event(players, [(1, "n", "o", "draw", 0)]))
    assert error.value.field == "players[0].grade"


@pytest.mark.parametrize(
    ("rating", "grade", "best", "before"),
    [
        (1720.4, "2k", "4k", 1900.0),  # two grades up: reset
        (1720.4, "3k", "4k", 1720.4),  # one grade up: no reset
        (1950.0, "2k", "4k", 1950.0),  # reset only raises
        (2050.0, "2d", "1k", 2200.0),  # across the kyu/dan border counts grades too
        (2500.0, "2p", "1p", 2730.0),  # one professional grade
        (2650.0, "1p", "5d", 2700.0),  # amateur -> pro: 2700 - 2500 >= 200
        (2650.0, "1p", "6d", 2650.0),  # 2700 - 2600 < 200
        (1500.0, "2k", None, 1500.0),  # no best grade, no reset
        (50.0, "23k", "25k", 100.0),  # below 20k all values are 100, still two grades up
    ],
)
def test_reset_rule(rating: float, grade: str, best: str | None, before: float) -> None:
    player: dict[str, Any] = {"id": "r", "rating": rating, "grade": grade}
    if best is not None:
        player["best_grade"] = best
    players = [player, {"id": "o", "rating": 2000, "grade": "1k"}]
    result = by_id(rate_json(event(players, [(1, "r", "o", "draw", 0)])))
    assert result["r"]["before"] == before


def test_reset_value_is_used_by_the_opponent_too() -> None:
    players = [
        {"id": "r", "rating": 1500, "grade": "1k", "best_grade": "5k"},
        {"id": "o", "rating": 2000, "grade": "1k"},
    ]
    result = by_id(rate_json(event(players, [(1, "r", "o", "draw", 0)])))
    assert result["o"]["games"][0]["expected"] == pytest.approx(0.492)  # equal: 2000 vs 2000


# --- §7 output specifics ------------------------------------------------------------------------


def test_output_flags_and_game_breakdown_in_round_order() -> None:
    players = [{"id": i, "rating": 2000 + 50 * n, "grade": "1k"} for n, i in enumerate("xyz")]
    games = [(3, "x", "y", "draw", 0), (1, "z", "x", "white", 0), (2, "y", "z", "black", 0)]
    result = rate_json(event(players, games))
    assert [p["id"] for p in result["players"]] == ["x", "y", "z"]
    for player in result["players"]:
        assert (player["rated"], player["provisional"], player["anomalous"]) == (True, False, False)
        assert player["history"] is None
        rounds = [g["round"] for g in player["games"]]
        assert rounds == sorted(rounds)
        assert player["change"] == player["after"] - player["before"]
    x = by_id(result)["x"]
    assert [(g["opponent"], g["score"]) for g in x["games"]] == [("z", 0.0), ("y", 0.5)]


def test_player_without_games_keeps_rating() -> None:
    players = [{"id": "x", "rating": 1234.5678, "grade": "8k"}]
    result = rate_json(event(players, []))
    assert result["players"][0]["after"] == 1234.568
    assert result["players"][0]["games"] == []


# --- params values --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"epsilon": "0.016"}, "params.epsilon"),
        ({"epsilon": -0.1}, "params.epsilon"),
        ({"epsilon": True}, "params.epsilon"),
        ({"class_weights": [1, 0.75, 0.5]}, "params.class_weights"),
        ({"class_weights": {"D": 0.25}}, "params.class_weights.D"),
        ({"class_weights": {"A": "x"}}, "params.class_weights.A"),
        ({"max_drop": -1}, "params.max_drop"),
        ({"floor": None}, "params.floor"),
    ],
)
def test_bad_param_values(params: dict[str, Any], field: str) -> None:
    players = [
        {"id": "x", "rating": 2000, "grade": "1k"},
        {"id": "y", "rating": 2000, "grade": "1k"},
    ]
    with pytest.raises(BadInput) as error:
        rate_json(event(players, [(1, "x", "y", "white", 0)], params=params))
    assert error.value.field == field


def test_registry_entry() -> None:
    from ratings.systems.registry import SYSTEMS

    system = SYSTEMS["egf"]
    assert system is egf.SYSTEM
    assert system.needs_grade
    assert system.params == {
        "epsilon": 0.016,
        "class_weights": {"A": 1.0, "B": 0.75, "C": 0.5},
        "max_drop": 100.0,
        "floor": 100.0,
    }
