"""One test (or a few) per decision of spec orr.md Part C (D1-D27).

Expected figures are worked by hand in each docstring or comment, from the
formulas of Part B, not read back from the engine.
"""

from __future__ import annotations

import datetime as dt
import math
from fractions import Fraction
from typing import Any

import pytest

from ratings.systems import rate_json
from ratings.systems.model import BadInput
from ratings.systems.orr import rating as orr
from ratings.systems.orr.newcomers import (
    Corridor,
    RatedShowing,
    average_opponent_age,
    clamped_age,
    completed_age,
    corridor,
    many_games_correction,
    player_coefficient,
    primary_estimate,
    refined_top,
    round_rational,
    start_estimate,
    tournament_coefficient,
)
from ratings.systems.orr.rating import TournamentWork, development_coefficient, format_rating

from .examples import load_examples
from .orr_builders import as_input, event, game, player, rated, stored

EXAMPLES = {name: (event_in, out) for name, event_in, out in load_examples("orr")}
F = Fraction


def _example_output(name: str) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in rate_json(EXAMPLES[name][0])["players"]}


# --- D1: PD rounded to 2 decimals; round_pd=false keeps it whole ------------------------------
def test_d1_pd_is_rounded_to_hundredths_by_default() -> None:
    # PD(1500 vs 1400) = 1/(1+10^-0.25) = 0.640065 -> 0.64
    out = rated(event([player("a", 1500), player("b", 1400)], [game(1, "a", "b")]))
    assert out["a"]["games"][0]["expected"] == 0.64
    assert out["b"]["games"][0]["expected"] == 0.36


def test_d1_round_pd_false_uses_the_full_expectation() -> None:
    document = event(
        [player("a", 1500), player("b", 1400)], [game(1, "a", "b")], params={"round_pd": False}
    )
    pd = rated(document)["a"]["games"][0]["expected"]
    assert pd == pytest.approx(1 / (1 + 10 ** (-100 / 400)), abs=1e-15)
    assert pd != 0.64


@pytest.mark.parametrize(
    ("pd", "hundredths"), [(0.285, 29), (0.125, 13), (0.0049999, 0), (0.995, 100), (0.64, 64)]
)
def test_d1_pd_rounds_half_up_on_its_printed_decimal(pd: float, hundredths: int) -> None:
    # 0.285*100 is 28.499999999999996 in binary; the decimal 0.285 still rounds up to 0.29.
    assert orr._half_up_hundredths(pd) == hundredths


# --- D2: half away from zero everywhere --------------------------------------------------------
def test_d2_rounding_is_half_away_from_zero() -> None:
    assert round_rational(F(5, 2)) == 3
    assert round_rational(F(-5, 2)) == -3
    assert round_rational(F(2497, 2)) == 1249  # banker's rounding would give 1248
    assert average_opponent_age([7, 7, 7, 8]) == F(73, 10)  # 7.25 -> 7.3, not 7.2


def test_d2_d3_a_new_rating_on_an_exact_half_rounds_up() -> None:
    # a (151, K+ 100) beats two 151s: PD 0.50 each, SR = 1.00,
    # R± = 100*1*(1-1/40) = 97.5, after = 248.5 -> 249 (banker's: 248).
    out = rated(
        event(
            [player("a", 151), player("b", 151), player("c", 151)],
            [game(1, "a", "b"), game(2, "c", "a", "black")],
        )
    )
    assert out["a"]["after"] == 249
    # b: SR = -0.5, K- 10 (100-199): 151 - 5 = 146.
    assert out["b"]["after"] == 146


def test_d2_negative_half_rounds_away_from_zero() -> None:
    # Both rated 0 (row "1-99"): the loser has SR = -0.5, K- = 5, R± = -2.5 -> -3.
    # The winner: 100*0.5*(1-0.5/40) = 49.375 -> 49.
    out = rated(event([player("w", 0), player("l", 0)], [game(1, "w", "l")]))
    assert out["l"]["after"] == -3
    assert out["w"]["after"] == 49


# --- D3: exact arithmetic; a decimal input rating is exact --------------------------------------
def test_d3_decimal_rating_is_taken_exactly_and_rounded_once() -> None:
    # A draw between equals: SR = 0, R± = 0, after = round(1500.5) = 1501.
    out = rated(event([player("a", 1500.5), player("b", 1500.5)], [game(1, "a", "b", "draw")]))
    assert out["a"]["before"] == 1500.5
    assert out["a"]["after"] == 1501
    assert out["a"]["change"] == 0.5


def test_d3_start_estimate_is_exact_before_rounding() -> None:
    # orr-02's p3: 611 + 550*0.25 = 748.5 exactly -> 749.
    assert start_estimate(Corridor(1411, 611, 1161), 2, F(1, 2)) == 749


# --- D4: K row by the starting value; everything below 100 takes row "1-99" -----------------------
@pytest.mark.parametrize(
    ("rating", "sr", "k"),
    [
        (F(-250), F(-1), 5),
        (F(0), F(1), 100),
        (F(9999, 100), F(-1), 5),
        (F(100), F(-1), 10),
        (F(1299), F(1), 40),
        (F(1300), F(1), 35),
        (F(1300), F(0), 35),
        (F(1700), F(-1, 100), 20),
        (F(23995, 10), F(1), 16),
        (F(2400), F(-1), 12),
    ],
)
def test_d4_k_table_rows_and_sign(rating: Fraction, sr: Fraction, k: int) -> None:
    assert development_coefficient(rating, sr) == k


def test_d4_a_weak_newcomer_estimate_may_be_negative() -> None:
    # Rsr 300 and 0.5/9: Rp = 300 - 400*lg 17 = -192.18 -> -192; no floor.
    estimate = primary_estimate([F(300)] * 9, F(1, 2), F(400), 1000)
    assert estimate.raw == -192
    assert estimate.value == -192


# --- D5: who determines Kt --------------------------------------------------------------------
def _kt(document: dict[str, Any]) -> int:
    return TournamentWork(as_input(document)).coefficient().kt


def _kt_event(top: dict[str, Any], extra: list[dict[str, Any]]) -> dict[str, Any]:
    newcomers = [player(f"n{i}") for i in range(8)]
    games = [game(r, "top", f"n{r - 1}", "draw" if r % 2 else "black") for r in range(1, 9)]
    return event([top, *newcomers, *extra], games, participants=26)


def test_d5_an_idle_rated_player_does_not_count_for_kt() -> None:
    with_top = _kt(_kt_event(player("top", 1950), []))
    assert with_top == _kt(_kt_event(player("top", 1950), [player("idle", 2600)]))
    assert with_top > 8  # the rated top player does raise it


def test_d5_an_unsettled_player_counts_for_kt() -> None:
    unsettled = player("top", 1950, history=stored((1000, 1)))
    assert _kt(_kt_event(unsettled, [])) == _kt(_kt_event(player("top", 1950), []))
    assert _kt(_kt_event(player("top", None), [])) == 8


# --- D6/D7: floors, and the order of the Kt steps -----------------------------------------------
def _showing(rating: int, games: int, score: float, age: int = 8) -> RatedShowing:
    return RatedShowing(F(rating), games, F(score), F(age))


def test_d6_d7_document_kt_example() -> None:
    # 1950, 4/9 vs eight-year-olds: Ki 26.78 -> [26.78] = 26 -> 25 -> 7 + [17/4] = 11.
    kt = tournament_coefficient(26, [_showing(1950, 9, 4)])
    assert (kt.root, kt.rated_players, kt.clamped, kt.kt) == (5, 1, 25, 11)


def test_d7_clamp_comes_before_the_reduction() -> None:
    # 3000, 4/9: Ki = (20*e^3.444 - 5)/8 = 77.6. Clamp then reduce: 7 + [17/4] = 11;
    # reducing first would give 7 + [69/4] = 24.
    assert tournament_coefficient(26, [_showing(3000, 9, 4)]).kt == 11


def test_d7_no_rated_player_gives_8_and_reduction_never_goes_below_8() -> None:
    assert tournament_coefficient(26, []).kt == 8
    # Ki = (20*e^0 - 5)/8 = 1.875 -> clamp 8 -> 7 + [0/4] = 7 -> 8.
    assert tournament_coefficient(26, [_showing(0, 1, 1)]).kt == 8


def test_d7_no_reduction_when_enough_rated_players() -> None:
    assert tournament_coefficient(1, [_showing(1950, 9, 4)]).kt == 25  # n = 1, i = 1


def test_d7_participants_comes_from_the_event() -> None:
    document = _kt_event(player("top", 1950), [])
    assert TournamentWork(as_input(document)).coefficient().participants == 26
    del document["event"]["participants"]
    assert TournamentWork(as_input(document)).coefficient().participants == 9


# --- D8: ages ------------------------------------------------------------------------------------
def test_d8_completed_years_and_birthday_on_the_day() -> None:
    assert completed_age(dt.date(2016, 6, 1), dt.date(2024, 6, 1)) == 8
    assert completed_age(dt.date(2016, 6, 2), dt.date(2024, 6, 1)) == 7


def test_d8_clamp_and_unknown_birth_date() -> None:
    day = dt.date(2024, 6, 1)
    assert clamped_age(dt.date(2021, 1, 1), day, 5, 13) == 5
    assert clamped_age(dt.date(1980, 1, 1), day, 5, 13) == 13
    assert clamped_age(None, day, 5, 13) == 5
    assert clamped_age(None, day, 6, 13) == 6


def test_d8_y_is_per_game_and_rounded_to_a_tenth() -> None:
    # n meets a (7) twice and b (9) once: (7+7+9)/3 = 7.67 -> 7.7.
    document = event(
        [player("n"), player("a", 1000, "2017-01-01"), player("b", 1000, "2015-01-01")],
        [game(1, "n", "a"), game(2, "a", "n"), game(3, "n", "b")],
    )
    assert TournamentWork(as_input(document)).opponents_age["n"] == F(77, 10)


# --- D9/D10/D26/D27: the corridor --------------------------------------------------------------------
def test_d9_rmax_is_rounded_not_truncated() -> None:
    band = corridor(11, F(7), 1)  # 1000*ln(4.1) = 1410.99
    assert (band.top, band.bottom, band.refined_top) == (1411, 611, 1111)


def test_d10_rpmax_formula_is_literal() -> None:
    assert refined_top(1411, 611, 1) == 1411 - 50 * 6
    assert refined_top(1410, 600, 2) == 1410 - 50 * 5  # [810/16] = 50
    assert all(refined_top(1115, 315, n) == 1115 for n in range(7, 97))
    assert refined_top(1115, 315, 97) == 1115 - 50 * (1 - 2) * (7 - 97)


# A.3's computed table of corridors (Rmin, Rmax) by Y and Kt; D26: age 10 at Kt 8 is 647-1447.
CORRIDORS = {
    5: {8: (11, 811), 11: (299, 1099), 13: (453, 1253), 25: (1000, 1872)},
    6: {8: (175, 975), 11: (467, 1267), 13: (623, 1423), 25: (1000, 2048)},
    7: {8: (315, 1115), 11: (611, 1411), 13: (769, 1569), 25: (1000, 2197)},
    8: {8: (438, 1238), 11: (737, 1537), 13: (896, 1696), 25: (1000, 2327)},
    9: {8: (548, 1348), 11: (849, 1649), 13: (1000, 1808), 25: (1000, 2442)},
    10: {8: (647, 1447), 11: (949, 1749), 13: (1000, 1910), 25: (1000, 2546)},
    11: {8: (737, 1537), 11: (1000, 1841), 13: (1000, 2001), 25: (1000, 2639)},
    12: {8: (819, 1619), 11: (1000, 1924), 13: (1000, 2086), 25: (1000, 2725)},
    13: {8: (896, 1696), 11: (1000, 2001), 13: (1000, 2163), 25: (1000, 2803)},
}


@pytest.mark.parametrize("age", sorted(CORRIDORS))
def test_d26_d27_corridor_table(age: int) -> None:
    for kt, (bottom, top) in CORRIDORS[age].items():
        band = corridor(kt, F(age), 9)
        assert (band.bottom, band.top) == (bottom, top), (age, kt)


def test_d26_age_10_corridor_is_the_formulas_not_the_documents() -> None:
    band = corridor(8, F(10), 9)
    assert (band.bottom, band.top) == (647, 1447)
    assert (band.bottom, band.top) != (737, 1537)


# --- D11/D12: start estimate and primary estimate ----------------------------------------------------
def test_d11_start_estimate_bounds() -> None:
    band = Corridor(1537, 737, 1537)
    assert start_estimate(band, 9, F(0)) == 737
    assert start_estimate(band, 9, F(9)) == 1537
    assert start_estimate(band, 9, F(5)) == 1181  # 737 + 800*5/9 = 1181.44


def test_d12_hundred_percent_adds_a_draw_against_own_start_estimate() -> None:
    # orr-02 p2: (1026+1111)/2 = 1068.5 -> 1069; 1069 - 400*lg(2/1.5-1) = 1259.85 -> 1260.
    estimate = primary_estimate([F(1026)], F(1), F(1111), 1111)
    assert (estimate.average, estimate.raw) == (1069, 1260)


def test_d12_newcomer_opponents_count_at_start_estimate_in_rsr() -> None:
    out = _example_output("orr-02-one-game-newcomer.json")
    # p3's Rsr uses p4's Rs 1024 (-> Rp 834); with p4's Rp 1079 it would be 862.
    assert out["p3"]["before"] == 834


def test_d12_zero_score_keeps_the_start_estimate() -> None:
    out = _example_output("orr-03-26-of-26.json")
    assert out["p14"]["before"] == 315


# --- D13: Rpp --------------------------------------------------------------------------------------
def test_d13_more_than_15_games_correction() -> None:
    assert many_games_correction(1390, 1115, 26) == 1239  # 1390 - 151.25
    assert many_games_correction(1390, 1115, 15) == 1390
    assert many_games_correction(1000, 1115, 26) == 1000
    assert many_games_correction(-500, 1115, 26) == -500  # no raise from a negative Rp
    assert many_games_correction(-100, -200, 26) == -100  # Rpmax <= 0: no correction


def test_d13_uses_real_games_not_the_fictitious_one() -> None:
    estimate = primary_estimate([F(700)] * 26, F(26), F(1115), 1115)
    # Rsr = (26*700 + 1115)/27 = 715.37 -> 715; Rp = 715 + 400*lg 53 = 1404.7 -> 1405;
    # Rpp with N = 26 (not 27): 1405 - 11*290/20 = 1245.5 -> 1246.
    assert (estimate.average, estimate.raw, estimate.value) == (715, 1405, 1246)


# --- D14: rated players are rated against the newcomers' primary estimates ---------------------------
def test_d14_rated_players_meet_newcomers_at_their_primary_estimate() -> None:
    out = _example_output("orr-02-one-game-newcomer.json")
    expectations = {g["opponent"]: g["expected"] for g in out["p1"]["games"]}
    # 1026 vs Rp 1260, 834, 1079: 0.21, 0.75, 0.42.
    assert expectations == {"p2": 0.21, "p3": 0.75, "p4": 0.42}
    assert out["p1"]["after"] == 1017


# --- D15: a zero-scoring newcomer ---------------------------------------------------------------------
def test_d15_zero_scorer_is_not_rated_and_counts_at_his_start_estimate() -> None:
    # Kt 8 (a: Ki 6.17, clamped 8); z's Y = 8: Rmax 1238, Rmin 438, Rs = 438.
    # a: PD(1000 vs 438) = 0.9622 -> 0.96 twice; SR 0.08; K+ 45: R± = 3.59 -> 1004.
    out = rated(
        event([player("a", 1000), player("z")], [game(1, "a", "z"), game(2, "z", "a", "black")])
    )
    z = out["z"]
    assert (z["rated"], z["before"], z["after"], z["change"]) == (False, 438, None, None)
    assert (z["provisional"], z["history"]) == (False, None)
    assert [g["change"] for g in z["games"]] == [None, None]
    assert [g["expected"] for g in z["games"]] == [0.04, 0.04]
    assert out["a"]["after"] == 1004
    assert [g["expected"] for g in out["a"]["games"]] == [0.96, 0.96]


# --- D16: players without games -----------------------------------------------------------------------
def test_d16_players_without_games() -> None:
    history = stored((1000, 1))
    out = rated(
        event(
            [
                player("a", 1000),
                player("b", 900),
                player("idle", 1200),
                player("new"),
                player("u", 1300, history=history),
            ],
            [game(1, "a", "b")],
        )
    )
    assert (out["idle"]["before"], out["idle"]["after"], out["idle"]["change"]) == (1200, 1200, 0)
    assert out["idle"]["rated"] is True and out["idle"]["history"] is None
    assert (out["new"]["before"], out["new"]["after"], out["new"]["rated"]) == (None, None, False)
    assert out["u"]["provisional"] is True and out["u"]["history"] == history
    assert out["u"]["after"] == 1300


# --- D17: unsettled bookkeeping ------------------------------------------------------------------------
def test_d17_a_first_event_never_settles_even_with_13_games() -> None:
    players = [player("n"), *[player(f"r{i}", 1000 + 10 * i) for i in range(13)]]
    games = [game(i + 1, "n", f"r{i}", "draw") for i in range(13)]
    n = rated(event(players, games))["n"]
    assert n["provisional"] is True
    assert n["history"]["events"] == 1 and len(n["history"]["games"]) == 13


def test_d17_settle_events_1_lets_a_newcomer_settle_at_once() -> None:
    players = [player("n"), *[player(f"r{i}", 1000) for i in range(11)]]
    games = [game(i + 1, "n", f"r{i}", "draw") for i in range(11)]
    n = rated(event(players, games, params={"settle_events": 1}))["n"]
    assert (n["provisional"], n["history"]) == (False, None)


def test_d17_rated_player_with_null_history_is_settled() -> None:
    out = rated(event([player("fide", 1800), player("n")], [game(1, "fide", "n")]))
    assert (out["fide"]["provisional"], out["fide"]["history"]) == (False, None)


def test_d17_stored_games_are_kept_and_events_counted() -> None:
    history = stored((1000, 1), (1100, 0), events=1)
    out = rated(event([player("u", 1200, history=history), player("x", 1100)], [game(1, "u", "x")]))
    u = out["u"]
    assert u["provisional"] is True
    assert u["history"]["events"] == 2
    assert u["history"]["games"][:2] == history["games"]
    assert u["history"]["games"][2] == {
        "event": "t",
        "round": 1,
        "opponent": "x",
        "rating": 1100,
        "score": 1,
    }


# --- D18: the correction of an unsettled rating ---------------------------------------------------------
def test_d18_hundred_percent_below_11_games_adds_a_draw_against_r0() -> None:
    # u (1200*) won his stored game vs 1000 and beats x (1100): N 2, S 2, plus a draw vs 1200:
    # Rsr = 1100, Rkor = 1100 - 400*lg(3/2.5-1) = 1379.59 -> 1380.
    # From 1380: PD 0.90 (1000) + 0.83 (1100); SR 0.27; K+ 35: R± = 9.39 -> 1389.
    out = rated(
        event(
            [player("u", 1200, history=stored((1000, 1))), player("x", 1100)], [game(1, "u", "x")]
        )
    )
    assert (out["u"]["before"], out["u"]["after"], out["u"]["change"]) == (1200, 1389, 189)
    assert out["u"]["games"][0]["expected"] == 0.83  # from Rkor, not from 1200
    # x meets u at his starting 1200*: PD(1100 vs 1200) = 0.36.
    assert out["x"]["games"][0]["expected"] == 0.36


def test_d18_total_score_zero_starts_from_r0() -> None:
    # Rk = R0 = 1200; PD 0.76 (1000) + 0.64 (1100), SR -1.40, K- 25: -35 -> 1165.
    out = rated(
        event(
            [player("u", 1200, history=stored((1000, 0))), player("x", 1100)], [game(1, "x", "u")]
        )
    )
    assert out["u"]["after"] == 1165


# --- D19: stored opponent values -------------------------------------------------------------------------
def test_d19_a_newcomer_opponent_is_stored_at_his_primary_estimate() -> None:
    p2 = _example_output("orr-06-provisional-second.json")["p2"]
    stored_n1 = [g["rating"] for g in p2["history"]["games"] if g["opponent"] == "n1"]
    assert stored_n1 == [1091]  # n1's Rp, not his Rs 1008


# --- D20/D21: per-game output and output numbers ----------------------------------------------------------
def test_d20_per_game_change_is_k_times_s_minus_pd() -> None:
    out = _example_output("orr-05-sr-over-20.json")
    assert {g["change"] for g in out["lo"]["games"]} == {90.0}
    assert sum(g["change"] for g in out["lo"]["games"]) == 1980  # K*SR, not R± = 900
    assert out["lo"]["change"] == 900


def test_d21_after_is_an_integer() -> None:
    for name in EXAMPLES:
        for p in _example_output(name).values():
            assert p["after"] is None or type(p["after"]) is int


# --- D22: the asterisk ---------------------------------------------------------------------------------------
def test_d22_format_rating_marks_unsettled_ratings() -> None:
    assert format_rating(1345, True) == "1345*"
    assert format_rating(1345, False) == "1345"
    assert format_rating(1345.0, True) == "1345*"
    assert format_rating(-3, False) == "-3"
    assert format_rating(None, True) == ""


# --- D23: order of games -------------------------------------------------------------------------------------
def test_d23_games_are_listed_by_round_then_input_order() -> None:
    out = rated(
        event(
            [player("a", 1000), player("b", 1000), player("c", 1000)],
            [game(3, "a", "b"), game(1, "c", "a"), game(2, "b", "a")],
        )
    )
    assert [(g["round"], g["opponent"]) for g in out["a"]["games"]] == [
        (1, "c"),
        (2, "b"),
        (3, "b"),
    ]


# --- D24: Ki with exact e ---------------------------------------------------------------------------------------
def test_d24_ki_uses_exact_e() -> None:
    assert player_coefficient(_showing(1950, 9, 4)) == pytest.approx(
        (20 * math.exp((800 * 5 / 9 + 1950) / 1000) - 5) / 8
    )
    # 26.7803 (the spec's text says 26.781 / 26.7808); the document's e = 2.718 gave 26.761.
    assert player_coefficient(_showing(1950, 9, 4)) == pytest.approx(26.7803, abs=1e-4)


# --- D25: bad input ---------------------------------------------------------------------------------------------
BAD_HISTORIES: list[Any] = [
    "yes",
    [],
    {"games": []},
    {"events": 0, "games": []},
    {"events": True, "games": []},
    {"events": 1.5, "games": []},
    {"events": 1, "games": {}},
    {"events": 1},
    {"events": 1, "games": [5]},
    {"events": 1, "games": [{"score": 1}]},
    {"events": 1, "games": [{"rating": "1000", "score": 1}]},
    {"events": 1, "games": [{"rating": 1000, "score": 2}]},
    {"events": 1, "games": [{"rating": 1000, "score": 0.25}]},
    {"events": 1, "games": [{"rating": 1000, "score": False}]},
    {"events": 1, "games": [{"rating": 1000}]},
    {"events": 1, "games": [{"rating": 10**400, "score": 1}]},
    {"events": 1, "games": [{"rating": -2e6, "score": 1}]},
]


@pytest.mark.parametrize("history", BAD_HISTORIES)
@pytest.mark.parametrize("rating", [1200, None])
def test_d25_malformed_history_is_bad_input(history: Any, rating: int | None) -> None:
    document = event([player("u", rating, history=history), player("x", 1100)], [game(1, "u", "x")])
    with pytest.raises(BadInput) as caught:
        rate_json(document)
    assert "players[0].history" in caught.value.field


@pytest.mark.parametrize(
    "params",
    [
        {"round_pd": "yes"},
        {"round_pd": 1},
        {"age_min": 0},
        {"age_max": 101},
        {"age_min": 10, "age_max": 9},
        {"age_min": 5.5},
        {"settle_games": 0},
        {"settle_games": 1.5},
        {"settle_events": True},
        {"k_factor": 10},
    ],
)
def test_d25_invalid_params_are_bad_input(params: dict[str, Any]) -> None:
    document = event([player("a", 1000), player("b", 900)], [game(1, "a", "b")], params=params)
    with pytest.raises(BadInput) as caught:
        rate_json(document)
    assert caught.value.field.startswith("params")


@pytest.mark.parametrize("participants", [0, -3, 2.5, "26", True])
def test_d25_participants_must_be_a_positive_integer(participants: Any) -> None:
    document = event([player("a", 1000), player("b", 900)], [game(1, "a", "b")])
    document["event"]["participants"] = participants
    with pytest.raises(BadInput) as caught:
        rate_json(document)
    assert caught.value.field == "event.participants"


def test_d25_valid_params_are_accepted() -> None:
    params = {"round_pd": True, "age_min": 4, "age_max": 16, "settle_games": 5, "settle_events": 3}
    document = event([player("a", 1000), player("b", 900)], [game(1, "a", "b")], params=params)
    assert rated(document)["a"]["rated"] is True
