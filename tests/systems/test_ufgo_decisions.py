"""`ufgo`: one test (or a few) per decision D1-D24 of spec ufgo.md Part C, pinning the
reading, plus the params of B8. Values are worked out by hand in the comments."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from ratings.systems import BadInput, rate_json
from ratings.systems.grades import Grade
from ratings.systems.model import Player
from ratings.systems.ufgo import rating as ufgo

F = Fraction
Row = tuple[int, str, str, str]  # (round, white, black, result)


def event(
    players: list[tuple[str, Any]],
    games: list[Row],
    *,
    board: int = 19,
    official: bool = True,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    document: dict[str, Any] = {
        "system": "ufgo",
        "event": {"id": "t", "date": "2024-03-10", "board": board, "official": official},
        "players": [{"id": pid, "rating": rating} for pid, rating in players],
        "games": [{"round": r, "white": w, "black": b, "result": res} for r, w, b, res in games],
    }
    if params is not None:
        document["params"] = params
    return document


def rate(*args: Any, **kwargs: Any) -> dict[str, dict[str, Any]]:
    """Rate through `rate_json`; players by id, plus the notes under key ''."""
    result = rate_json(event(*args, **kwargs))
    by_id: dict[str, dict[str, Any]] = {p["id"]: p for p in result["players"]}
    by_id[""] = {"notes": result["notes"]}
    return by_id


def changes(player: dict[str, Any]) -> list[float]:
    return [game["change"] for game in player["games"]]


# --- D1 scope -------------------------------------------------------------------------------


def test_d1_every_player_is_rated_and_no_grade_is_computed() -> None:
    out = rate([("A", 1500), ("B", 1400), ("idle", 1234.56)], [(1, "A", "B", "white")])
    for pid in ("A", "B", "idle"):
        assert out[pid]["rated"] is True and out[pid]["provisional"] is False
        assert set(out[pid]) == {
            "id", "before", "after", "change", "rated", "provisional", "anomalous", "history",
            "games",
        }  # fmt: skip


# --- D2 newcomers, D21 pro grades -----------------------------------------------------------


@pytest.mark.parametrize(
    ("grade", "start"),
    [
        ("30k", 0), ("29k", 10), ("21k", 90), ("20k", 100), ("10k", 1100), ("1k", 2000),
        ("1d", 2100), ("6d", 2600), ("7d", 2700), ("8d", 2700), ("9d", 2700), ("1p", 2700),
        ("9p", 2700), (None, 0),
    ],
)  # fmt: skip
def test_d2_d21_newcomer_starts_at_table1_lower_bound(grade: str | None, start: int) -> None:
    document = event([("N", None), ("M", 1000)], [])
    if grade is not None:
        document["players"][0]["grade"] = grade
    newcomer = rate_json(document)["players"][0]
    assert newcomer["before"] == start and newcomer["after"] == start


def test_d2_newcomer_grade_is_not_required() -> None:
    assert ufgo.SYSTEM.needs_grade is False


# --- D3 rounds ------------------------------------------------------------------------------


def test_d3_rounds_processed_in_increasing_number_whatever_the_input_order() -> None:
    players = [("A", 1500), ("B", 1400), ("C", 1250), ("D", 1180)]
    games: list[Row] = [
        (7, "A", "C", "draw"),
        (7, "B", "D", "white"),
        (2, "A", "B", "white"),
        (2, "C", "D", "white"),
    ]
    shuffled = rate(players, games)
    ordered = rate(players, sorted(games))
    assert shuffled == ordered
    # Same numbers as example ufgo-01 (rounds 1 and 2 there): gaps do not matter.
    assert [shuffled[p]["after"] for p in "ABCD"] == [1506, 1405, 1288, 1165]
    assert [g["round"] for g in shuffled["A"]["games"]] == [2, 7]


def test_d3_missed_round_keeps_rating_and_adds_no_ra_term() -> None:
    rules = ufgo.make_rules({}, 19, True)
    # A and B play rounds 1 and 3; C and D play round 2 only.
    rounds = [(1, [(0, 1, 2)]), (2, [(2, 3, 1)]), (3, [(0, 1, 0)])]
    calc = ufgo.calculate([F(1500), F(1400), F(1000), F(1000)], rounds, rules)
    # A: two games at K2 30, K3 2 each: RA = 0.45*60 + 4 = 31; C: one game at K2 50.
    assert calc.anomaly_limit(0) == 31
    assert calc.anomaly_limit(2) == F(45, 100) * 50 + 10
    # Round 3: A 1512.8 loses to B 1391.2: R12 121.6 -> 122 -> 0.67: 30*(0 - 0.67) + 2.
    assert [calc.change(g) for g in calc.games(0)] == [F(128, 10), F(-181, 10)]


# --- D4 several games in one round ----------------------------------------------------------


def test_d4_batch_games_use_round_start_ratings_and_consume_k3_in_order() -> None:
    # All at 1500, K3 capped at 3 for A: the win takes 2, the draw the remaining 1.
    # From round start both K1 are 0.5: +17 then +1 -> 1518 (from 1517 the draw would
    # use K1 0.52 and give +0.4).
    players = [("A", 1500), ("B", 1500), ("C", 1500)]
    params = {"k3_cap_high": 3}
    out = rate(players, [(1, "A", "B", "white"), (1, "A", "C", "draw")], params=params)
    assert [g["expected"] for g in out["A"]["games"]] == [0.5, 0.5]
    assert changes(out["A"]) == [17, 1]
    assert out["A"]["after"] == 1518 and not out["A"]["anomalous"]
    # The other order: the draw takes 2 of the cap, the win the last 1.
    out = rate(players, [(1, "A", "C", "draw"), (1, "A", "B", "white")], params=params)
    assert changes(out["A"]) == [2, 16] and out["A"]["after"] == 1518


def test_d4_batch_crossing_100_upwards_then_again() -> None:
    # 96 wins twice below 100 in one round: 96+5 -> 110, then 5 low points x 10 -> 160.
    players = [("A", 96), ("B", 50), ("C", 60)]
    games: list[Row] = [(1, "A", "B", "white"), (1, "A", "C", "white")]
    first = rate(players, games, params={"max_recalculations": 0})
    assert changes(first["A"]) == [14, 50]
    # Since D14's revision the gain 64 > RA 54 (0.45 * 120) is anomalous: recalculated
    # from 160, Table 4 (100-199) gives 20 + 20 twice -> 240 (RA 94, normal).
    out = rate(players, games)
    assert out[""]["notes"] == ["recalculation 1: A anomalous (gain 64 > RA 54); start 96 -> 160"]
    assert out["A"]["after"] == 240 and changes(out["A"]) == [40, 40]


def test_d4_d12_several_games_in_a_round_are_rounded_once_after_the_last() -> None:
    # 9x9, all at 1000, official: each draw is (50 * 0 + 10) / 3 = 3.333... from the
    # round-start ratings. In one round A runs 1003.333 -> 1006.667, rounded once: 1006.7,
    # reported as 3.3 then 3.4 (rounding each game would give 1003.3 + 3.3 = 1006.6).
    players = [("A", 1000), ("B", 1000), ("C", 1000)]
    one_round: list[Row] = [(1, "A", "B", "draw"), (1, "A", "C", "draw")]
    out = rate(players, one_round, board=9)
    assert changes(out["A"]) == [3.3, 3.4] and out["A"]["after"] == 1007
    rules = ufgo.make_rules({}, 9, True)
    calc = ufgo.calculate([F(1000)] * 3, [(1, [(0, 1, 1), (0, 2, 1)])], rules)
    assert F(calc.players[0].units, calc.unit) == F(10067, 10)
    # The other side: one game a round is rounded after that round, as before. Round 2
    # starts from 1003.3 against B at 1003.3 (K1 0.5): 3.333 -> 1006.6.
    two_rounds: list[Row] = [(1, "A", "B", "draw"), (2, "A", "B", "draw")]
    calc = ufgo.calculate([F(1000)] * 3, [(1, [(0, 1, 1)]), (2, [(0, 1, 1)])], rules)
    assert F(calc.players[0].units, calc.unit) == F(10066, 10)
    assert changes(rate(players, two_rounds, board=9)["A"]) == [3.3, 3.3]


def test_d4_batch_crossing_100_downwards_then_again() -> None:
    # 104 loses twice to players below 100 (Table 4: -40 + 20): 98.4, then -20/10 -> 96.4.
    out = rate([("C", 104), ("D", 50), ("E", 60)], [(1, "D", "C", "white"), (1, "E", "C", "white")])
    assert changes(out["C"]) == [-5.6, -2]
    assert out["C"]["after"] == 96


def test_d4_a_long_batch_can_take_a_player_below_zero() -> None:
    # Not a wish, a consequence of D4 (see the report): every loss is computed from the
    # round-start 100, so each one after the first costs 4 (or 6 without k3) below 100.
    weak = [(f"w{i}", 50) for i in range(30)]
    games: list[Row] = [(1, pid, "C", "white") for pid, _ in weak]
    out = rate([("C", 100), *weak], games)
    assert out["C"]["after"] < 0


# --- D5 which rule --------------------------------------------------------------------------


def test_d5_rule_chosen_by_round_start_ik() -> None:
    # P (96) beats R (95) below 100: 110. In round 2 P is at or above 100, so against
    # Q (50) Table 4 applies (100-199 win: 20 + k3 20) -> 150; Q gets +1 and no Table 5.
    out = rate([("P", 96), ("R", 95), ("Q", 50)], [(1, "P", "R", "white"), (2, "P", "Q", "white")])
    assert changes(out["P"]) == [14, 40] and out["P"]["after"] == 150
    assert changes(out["Q"]) == [1]
    assert not out["P"]["anomalous"]


def test_d5_mixed_game_uses_table4_and_5_both_ways() -> None:
    out = rate([("c", 150), ("b", 70)], [(1, "c", "b", "black")])
    assert changes(out["b"]) == [5 + 3]  # 5.1 win + Table 5 (opponent 100-199)
    assert changes(out["c"]) == [-40 + 20]  # Table 4 loss + k3


# --- D6 Table 2 with fractional differences ------------------------------------------------


@pytest.mark.parametrize(
    ("diff", "lower"),
    [
        (F(0), F(50, 100)), (F(3), F(50, 100)), (F(35, 10), F(49, 100)), (F(30001, 10000), F(49, 100)),
        (F(10), F(49, 100)), (F(101, 10), F(48, 100)), (F(735), F(1, 100)), (F(7351, 10), F(0)),
        (F(5000), F(0)),
    ],
)  # fmt: skip
def test_d6_band_of_ceil_of_difference(diff: Fraction, lower: Fraction) -> None:
    high = F(1000) + diff
    assert ufgo.k1(F(1000), high) == lower
    assert ufgo.k1(high, F(1000)) == 1 - lower


def test_d6_through_an_event() -> None:
    out = rate([("A", 1003.5), ("B", 1000)], [(1, "A", "B", "draw")])
    assert out["A"]["games"][0]["expected"] == 0.51
    assert out["B"]["games"][0]["expected"] == 0.49


# --- D7 lower-inclusive bands of tables 3-5 -------------------------------------------------


def test_d7_table3_bands() -> None:
    assert ufgo.t3(F(5999, 10)) == (60, 20)
    assert ufgo.t3(F(600)) == (50, 10)
    assert ufgo.t3(F(10995, 10)) == (50, 10)
    assert ufgo.t3(F(1100)) == (40, 5)
    assert ufgo.t3(F(19999, 10)) == (20, 1)
    assert ufgo.t3(F(2000)) == (10, 0)
    assert ufgo.t3(F(-5)) == (60, 20)


def test_d7_table4_and_table5_bands() -> None:
    assert ufgo.t4(F(1999, 10), 19) == (20, -40, 20)
    assert ufgo.t4(F(200), 19) == (10, -50, 20)
    assert ufgo.t4(F(400), 13) == (0, -30, 10)
    assert ufgo.t4(F(600), 19) == (0, -60, 0)
    assert ufgo.t5(F(100), 9) == 1
    assert ufgo.t5(F(3999, 10), 19) == 5
    assert ufgo.t5(F(400), 19) == 7


def test_d7_floor_of_rating_selects_the_band_in_a_calculation() -> None:
    # 599.9 is still "< 600": K2 60, K3 20: draw with an equal player -> +20.
    out = rate([("A", 599.9), ("B", 599.9)], [(1, "A", "B", "draw")])
    assert changes(out["A"]) == [20]


# --- D8 the Table 4 misprint ----------------------------------------------------------------


def test_d8_9x9_loss_above_600_costs_20() -> None:
    assert ufgo.t4(F(700), 9) == (0, -20, 0)
    out = rate([("E", 700), ("F", 50)], [(1, "E", "F", "black")], board=9)
    assert out["E"]["after"] == 680


# --- D9 board divisor -----------------------------------------------------------------------


def test_d9_formula1_including_k3_is_divided() -> None:
    # 13x13: 1050 beats 1000: (50*(1 - 0.57) + 10) / 2 = 15.75 -> 15.8.
    out = rate([("X", 1050), ("Y", 1000)], [(1, "X", "Y", "white")], board=13)
    assert changes(out["X"]) == [15.8]


def test_d9_table4_k3_enters_ra_undivided() -> None:
    # 13x13: 150 beats 50: +10 + k3 10 = 20; RA = 0.45*60/2 + 10 = 23.5 (divided: 18.5 < 20).
    rules = ufgo.make_rules({}, 13, True)
    calc = ufgo.calculate([F(150), F(50)], [(1, [(0, 1, 2)])], rules)
    assert calc.anomaly_limit(0) == F(235, 10)
    out = rate([("A", 150), ("B", 50)], [(1, "A", "B", "white")], board=13)
    assert out["A"]["after"] == 170 and not out["A"]["anomalous"]


def test_d9_fixed_point_rules_are_not_divided() -> None:
    for board, win in ((19, 5), (13, 3), (9, 2)):
        out = rate([("a", 40), ("b", 70)], [(1, "a", "b", "white")], board=board)
        assert changes(out["a"]) == [win] and changes(out["b"]) == [1]


# --- D10 K3 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("official", "k3", "after", "note"),
    [
        (True, None, 190, None),
        (False, None, 170, "K3 not applied (event not official)"),
        (False, True, 190, "K3 applied (params.k3 is true)"),
        (True, False, 170, "K3 not applied (params.k3 is false)"),
    ],
)
def test_d10_k3_follows_official_unless_forced(
    official: bool, k3: bool | None, after: int, note: str | None
) -> None:
    # 150 beats 50 on 19x19: Table 4 r = 20, plus k3 20 only when K3 is on.
    params = None if k3 is None else {"k3": k3}
    out = rate([("A", 150), ("B", 50)], [(1, "A", "B", "white")], official=official, params=params)
    assert out["A"]["after"] == after
    assert out[""]["notes"] == ([] if note is None else [note])


@pytest.mark.parametrize(("cap", "second_change"), [(30, 31), (25, 26)])
def test_d10_cap_chosen_by_start_ik_and_last_game_gets_the_remainder(
    cap: int, second_change: int
) -> None:
    # A (590) beats B (590) three times; max_recalculations 0 shows the first calculation.
    # Round 1: 60*0.5 + 20 = 50 -> 640. Round 2 (K2 50, K3 10, K1 0.58): 21 + min(10, cap - 20).
    # A cap chosen by the current IK (640 -> 15) would give no K3 in round 2 at all.
    params = {"k3_cap_low": cap, "k3_cap_high": 15, "max_recalculations": 0}
    games: list[Row] = [(r, "A", "B", "white") for r in (1, 2, 3)]
    out = rate([("A", 590), ("B", 590)], games, params=params)
    assert changes(out["A"]) == [50, second_change, 17.5]


def test_d10_cap_reached_in_example_6_style() -> None:
    # 640 has cap 50 and K3 10: five games take it all, the sixth none.
    games: list[Row] = [(r, "B", "A", "white") for r in range(1, 7)]
    out = rate([("A", 300), ("B", 640)], games)
    assert changes(out["B"])[-1] == 5.5 and changes(out["B"])[0] == 16


# --- D11 draws ------------------------------------------------------------------------------


def test_d11_draws_in_the_fixed_point_rules() -> None:
    out = rate([("a", 40), ("b", 70)], [(1, "a", "b", "draw")])
    assert changes(out["a"]) == [3] and changes(out["b"]) == [3]  # (5 + 1) / 2
    # 50 draws with 150: (5 + 1)/2 + 3/2 = 4.5 -> 54.5 -> 55; 150: (20 - 40)/2 + 20 = 10.
    out = rate([("a", 50), ("c", 150)], [(1, "a", "c", "draw")])
    assert changes(out["a"]) == [4.5] and out["a"]["after"] == 55
    assert changes(out["c"]) == [10]


def test_d11_drawn_table5_points_count_half_toward_5_4() -> None:
    # P (50): two wins and a draw against 150s: 3 + 3 + 1.5 = 7.5 < 9: not anomalous.
    games: list[Row] = [(1, "Q1", "P", "black"), (2, "Q2", "P", "black"), (3, "Q3", "P", "draw")]
    out = rate([("P", 50), ("Q1", 150), ("Q2", 150), ("Q3", 150)], games)
    assert changes(out["P"]) == [8, 8, 4.5] and out["P"]["after"] == 71
    assert not out["P"]["anomalous"] and out[""]["notes"] == []


# --- D12 precision --------------------------------------------------------------------------


def test_d12_round_half_up_towards_plus_infinity() -> None:
    assert ufgo.round1(F(106575, 100)) == F(10658, 10)
    assert ufgo.round1(F(-5, 100)) == 0
    assert ufgo.round1(F(-15, 100)) == F(-1, 10)  # half-even would give -0.2
    assert ufgo.round_integer(F(5, 2)) == 3
    assert ufgo.round_integer(F(-5, 2)) == -2
    assert ufgo.round_integer(F(10425, 10)) == 1043


def test_d12_input_rating_is_not_rounded_first() -> None:
    # 9x9 draw of equals at 1000.04: (0 + 10)/3 -> 1003.3733... -> 1003.4 (from 1000.0: 1003.3).
    out = rate([("A", 1000.04), ("B", 1000.04)], [(1, "A", "B", "draw")], board=9)
    assert changes(out["A"]) == [3.36]
    assert out["A"]["after"] == 1003 and out["A"]["change"] == pytest.approx(2.96, abs=1e-12)


def test_d12_player_without_games_keeps_a_fractional_start() -> None:
    out = rate([("A", 1500), ("B", 1400), ("idle", 1234.56)], [(1, "A", "B", "white")])
    assert out["idle"]["before"] == 1234.56 and out["idle"]["after"] == 1234.56
    assert out["idle"]["change"] == 0 and out["idle"]["games"] == []


def test_b2_exact_decimal_not_binary_float() -> None:
    # 1000.15 is 1000.149999... as a binary float; exactly it rounds up to 1000.2.
    out = rate([("A", 1000.15), ("B", 1000.15)], [(1, "A", "B", "draw")], official=False)
    assert changes(out["A"]) == [0.05]


# --- D13 crossing 100 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "delta", "low", "result"),
    [
        (F(98), F(5), True, F(130)),
        (F(95), F(5), True, F(100)),
        (F(99), F(5), True, F(140)),
        (F(104), F(-20), False, F(984, 10)),
        (F(100), F(-1), False, F(999, 10)),
        (F(110), F(5), True, F(160)),  # already above 100 in the round (D4)
        (F(984, 10), F(-20), False, F(964, 10)),  # already below 100 in the round (D4)
        (F(96), F(60), False, F(120)),  # below, ordinary points: 40 reach 100, 20 remain
        (F(1000), F(35, 3), False, F(10117, 10)),
    ],
)
def test_d13_step_converts_at_1_to_10(
    rating: Fraction, delta: Fraction, low: bool, result: Fraction
) -> None:
    assert ufgo.step(rating, delta, low) == result


# --- D14 RA ---------------------------------------------------------------------------------


def test_d14_gain_equal_to_ra_is_not_anomalous() -> None:
    # 300 beats 265 (R12 35 -> 0.55): 60*0.45 + 20 = 47 = RA 0.45*60 + 20.
    out = rate([("X", 300), ("Y", 265)], [(1, "X", "Y", "white")])
    assert out["X"]["change"] == 47 and not out["X"]["anomalous"]


def test_d14_gain_above_ra_is_anomalous() -> None:
    # 300 beats 268 (0.54): 47.6 -> 348, gain 48 > 47; again from 348 (0.61): 43.4 -> 391.
    out = rate([("X", 300), ("Y", 268)], [(1, "X", "Y", "white")])
    assert out["X"]["anomalous"] and out["X"]["before"] == 348 and out["X"]["after"] == 391
    assert out[""]["notes"] == ["recalculation 1: X anomalous (gain 48 > RA 47); start 300 -> 348"]
    assert out["Y"]["before"] == 268 and out["Y"]["after"] == 265


def test_d14_ra_applies_to_a_player_starting_below_100() -> None:
    # Revised: 4.5 «для каждого участника». RA = 0.45 * 60 = 27 for one game.
    # 97 beats 50: 102 below 100 -> 100 + 2 * 10 = 120, gain 23 <= 27: normal.
    out = rate([("C", 97), ("D", 50)], [(1, "D", "C", "black")])
    assert out["C"]["after"] == 120 and not out["C"]["anomalous"] and out[""]["notes"] == []
    # 98 beats 50: 103 -> 130, gain 32 > 27: anomalous (before the revision: 130, unflagged);
    # from 130 Table 4 (100-199) gives 20 + 20 -> 170 (RA 47).
    out = rate([("C", 98), ("D", 50)], [(1, "D", "C", "black")])
    assert out[""]["notes"] == ["recalculation 1: C anomalous (gain 32 > RA 27); start 98 -> 130"]
    assert out["C"]["anomalous"] and out["C"]["before"] == 130 and out["C"]["after"] == 170
    assert out["D"]["after"] == 51 and not out["D"]["anomalous"]


def test_d14_the_issue_case_95_beating_50_1000_1200() -> None:
    # 95 + 5 (5.1 vs 50) -> exactly 100; then formula (1) with K1 0 twice: 60 + 20 -> 180,
    # -> 260. Unflagged before the revision; now gain 165 > RA 0.45 * 180 + 40 = 121, and
    # seven recalculations later (start 1034) he ends at 1111, as the issue says.
    players = [("P", 95), ("a", 50), ("b", 1000), ("c", 1200)]
    games: list[Row] = [(1, "P", "a", "white"), (2, "P", "b", "white"), (3, "P", "c", "white")]
    first = rate(players, games, params={"max_recalculations": 0})
    assert first["P"]["after"] == 260
    out = rate(players, games)
    assert out[""]["notes"][0] == (
        "recalculation 1: P anomalous (gain 165 > RA 121); start 95 -> 260"
    )
    assert out["P"]["anomalous"] and out["P"]["before"] == 1034 and out["P"]["after"] == 1111


# --- D15 rule 5.4 ---------------------------------------------------------------------------


def test_d15_new_start_is_the_result_when_above_100() -> None:
    # 80 beats two 450s: 80 + 12 = 92, + 12 = 104 -> 140; 14 extra points >= 9. The RA
    # rule fires too (gain 60 > 0.45 * 120 = 54, D14): 5.4 names the reason and the start.
    games: list[Row] = [(1, "Q1", "P", "black"), (2, "Q2", "P", "black")]
    out = rate([("P", 80), ("Q1", 450), ("Q2", 450)], games)
    assert out[""]["notes"][0] == (
        "recalculation 1: P anomalous (14 additional points (5.4)); start 80 -> 140"
    )
    assert out["P"]["anomalous"]


def test_d15_exactly_the_limit_fires() -> None:
    # Example ufgo-07: 3 + 3 + 3 = 9 on 19x19; on 9x9 two wins against 200s give 2 + 2 = 4.
    games: list[Row] = [(1, "Q1", "P", "black"), (2, "Q2", "P", "black")]
    out = rate([("P", 50), ("Q1", 250), ("Q2", 250)], games, board=9)
    assert out[""]["notes"][0].startswith("recalculation 1: P anomalous (4 additional points")


# --- D16 recalculation loop -----------------------------------------------------------------


def test_d16_all_anomalous_players_raised_at_once() -> None:
    games: list[Row] = [(1, "X", "Y", "white"), (1, "U", "V", "white")]
    out = rate([("X", 1530), ("Y", 1500), ("U", 1530), ("V", 1500)], games)
    assert out[""]["notes"] == [
        "recalculation 1: X anomalous (gain 16 > RA 15.5); start 1530 -> 1546",
        "recalculation 1: U anomalous (gain 16 > RA 15.5); start 1530 -> 1546",
    ]
    for winner in "XU":
        assert out[winner]["before"] == 1546 and out[winner]["after"] == 1561
    for loser in "YV":
        assert out[loser]["before"] == 1500 and not out[loser]["anomalous"]


def test_d16_guard_stops_and_says_so() -> None:
    out = rate(
        [("X", 1500), ("Y", 1500)], [(1, "X", "Y", "white")], params={"max_recalculations": 1}
    )
    assert out[""]["notes"] == [
        "recalculation 1: X anomalous (gain 17 > RA 15.5); start 1500 -> 1517",
        "stopped after 1 recalculations (max_recalculations); still anomalous: X",
    ]
    assert out["X"]["before"] == 1517 and out["X"]["after"] == 1533


# --- D17-D19 ignored input ------------------------------------------------------------------


def test_d17_d19_handicap_history_and_birth_date_are_ignored() -> None:
    plain = event([("A", 1500), ("B", 1400)], [(1, "A", "B", "black")])
    decorated = event([("A", 1500), ("B", 1400)], [(1, "A", "B", "black")])
    decorated["games"][0]["handicap"] = 4
    decorated["players"][0]["history"] = {"anything": [1, 2]}
    decorated["players"][1]["birth_date"] = "1950-01-01"
    assert rate_json(plain) == rate_json(decorated)
    assert all(p["history"] is None for p in rate_json(decorated)["players"])


def test_d18_expected_is_k1_or_null() -> None:
    out = rate(
        [("A", 1500), ("B", 1400), ("c", 50)], [(1, "A", "B", "white"), (2, "A", "c", "white")]
    )
    assert [g["expected"] for g in out["A"]["games"]] == [0.64, None]
    assert [g["expected"] for g in out["c"]["games"]] == [None]


# --- D20 negative ratings, D22 output numbers, D23 thirds, D24 -------------------------------


def test_d20_negative_ratings_are_below_100() -> None:
    out = rate(
        [("a", -50), ("b", -20), ("c", 150)], [(1, "a", "b", "white"), (2, "c", "a", "white")]
    )
    assert out["a"]["after"] == -44 and out["b"]["after"] == -19
    assert changes(out["c"]) == [40]


def test_d22_after_is_an_integer() -> None:
    out = rate([("A", 1000.04), ("B", 1000.04)], [(1, "A", "B", "draw")], board=9)
    assert type(out["A"]["after"]) is int and type(out["A"]["before"]) is float


def test_d23_thirds_are_exact_until_the_rounding() -> None:
    # 9x9 draw of equals at 1000, K3 on: 10/3 each round: 1003.3, then 1006.6333.. -> 1006.6.
    games: list[Row] = [(1, "A", "B", "draw"), (2, "A", "B", "draw")]
    out = rate([("A", 1000), ("B", 1000)], games, board=9)
    assert changes(out["A"]) == [3.3, 3.3]
    rules = ufgo.make_rules({}, 9, True)
    calc = ufgo.calculate([F(1000), F(1000)], [(1, [(0, 1, 1)])], rules)
    assert calc.anomaly_limit(0) == (F(45, 100) * 50 + 10) / 3  # exact, not rounded


def test_d24_one_game_winner_raised_until_k1_reaches_0_55() -> None:
    # 1500 beats 1500: 1517 (17 > 15.5), 1533 (16), 1549 (K1 0.55: 15.5 -> 1548.5 -> 1549, 16),
    # then K1 0.57: 14.9 -> 1564, gain 15.
    out = rate([("X", 1500), ("Y", 1500)], [(1, "X", "Y", "white")])
    assert out["X"]["before"] == 1549 and out["X"]["after"] == 1564
    assert out["X"]["games"][0]["expected"] == 0.57
    assert len(out[""]["notes"]) == 3


# --- B8 params ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("k3", "yes"), ("k3", 1), ("k3_cap_low", 0), ("k3_cap_high", -5), ("k3_cap_low", "100"),
        ("k3_cap_threshold", True), ("anomaly_factor", 0), ("divisor_13", -2), ("divisor_9", None),
        ("max_recalculations", -1), ("max_recalculations", 1.5), ("max_recalculations", True),
        ("max_recalculations", "10"), ("nonsense", 1),
    ],
)  # fmt: skip
def test_b8_bad_param_values_are_bad_input(name: str, value: Any) -> None:
    with pytest.raises(BadInput) as caught:
        rate_json(event([("A", 1500), ("B", 1400)], [(1, "A", "B", "white")], params={name: value}))
    # An unknown name is caught by the contract's validation, which names "params".
    assert caught.value.field in (f"params.{name}", "params")


def test_b8_params_change_the_constants() -> None:
    # Divisor 4 on 13x13: 1050 beats 1000: 31.5 / 4 = 7.875 -> 7.9.
    out = rate(
        [("X", 1050), ("Y", 1000)], [(1, "X", "Y", "white")], board=13, params={"divisor_13": 4}
    )
    assert changes(out["X"]) == [7.9]
    # anomaly_factor 0.6: X (1530) gains 16 <= 0.6*30 + 2 = 20: no recalculation.
    out = rate([("X", 1530), ("Y", 1500)], [(1, "X", "Y", "white")], params={"anomaly_factor": 0.6})
    assert not out["X"]["anomalous"] and out["X"]["after"] == 1546


def test_b8_defaults_are_the_published_constants() -> None:
    assert ufgo.SYSTEM.params == {
        "k3": None, "k3_cap_low": 100, "k3_cap_high": 50, "k3_cap_threshold": 600,
        "anomaly_factor": 0.45, "divisor_13": 2, "divisor_9": 3, "max_recalculations": 1000,
    }  # fmt: skip
    assert ufgo.SYSTEM.code == "ufgo"


def test_grade_of_newcomer_only_matters_when_rating_is_null() -> None:
    document = event([("A", 1500), ("B", 1400)], [(1, "A", "B", "white")])
    document["players"][0]["grade"] = "9p"
    assert rate_json(document)["players"][0]["before"] == 1500
    assert ufgo.start_rating(Player("N", None, Grade.parse("3d"))) == 2300
