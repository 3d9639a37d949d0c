"""`rivne`: one test (or a few) per decision D1-D25 of shared/spec/rivne.md, plus params.

Expected values are written out from the spec's formulas with plain arithmetic
here, not taken from the module, so a misreading in the module shows up.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any, Literal

import pytest

from ratings.systems import rate_json
from ratings.systems.grades import Grade
from ratings.systems.model import (
    JSON,
    BadInput,
    Event,
    EventInput,
    EventOutput,
    Game,
    Player,
    PlayerOutput,
    Result,
)
from ratings.systems.rivne import rating as rivne

Board = Literal[19, 13, 9]
PlayerSpec = tuple[str, float | None, str | None] | tuple[str, float | None, str | None, JSON]
GameSpec = tuple[int, str, str, Result] | tuple[int, str, str, Result, int]


def rate(
    players: list[PlayerSpec],
    games: list[GameSpec],
    board: Board = 19,
    params: dict[str, JSON] | None = None,
) -> EventOutput:
    return rivne.rate(make_event(players, games, board, params))


def make_event(
    players: list[PlayerSpec],
    games: list[GameSpec],
    board: Board = 19,
    params: dict[str, JSON] | None = None,
) -> EventInput:
    return EventInput(
        system="rivne",
        params=params or {},
        event=Event(id="t", date=dt.date(2024, 5, 1), board=board),
        players=tuple(
            Player(
                id=spec[0],
                rating=spec[1],
                grade=Grade.parse(spec[2]) if spec[2] else None,
                history=spec[3] if len(spec) > 3 else None,
            )
            for spec in players
        ),
        games=tuple(
            Game(
                round=g[0], white=g[1], black=g[2], result=g[3], handicap=g[4] if len(g) > 4 else 0
            )
            for g in games
        ),
    )


def player(output: EventOutput, pid: str) -> PlayerOutput:
    return next(p for p in output.players if p.id == pid)


def sigma(t: float) -> float:
    return 1 / (math.exp(t) + 1)


def a_of(r: float) -> float:
    return 205 - r / 20


# --- B3 functions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "k1"),
    [
        (-20, 116),
        (50, 116),
        (100, 116),
        (150, 113),
        (1400, 51),
        (1650, 41),
        (1811.512925, 35 + (31 - 35) * 11.512925 / 100),
        (2650, 10.5),
        (2700, 10),
        (3500, 10),
    ],
)
def test_k1_is_table_i_with_linear_interpolation(rating: float, k1: float) -> None:
    assert rivne.k1(rating) == pytest.approx(k1, abs=1e-12)


def test_k1_is_continuous_just_below_2700() -> None:
    assert rivne.k1(math.nextafter(2700.0, 0.0)) == pytest.approx(10, abs=1e-9)


@pytest.mark.parametrize(
    ("grade", "start"),
    [
        ("30k", 0),
        ("25k", 50),
        ("21k", 90),
        ("20k", 100),
        ("19k", 200),
        ("5k", 1600),
        ("1k", 2000),
        ("1d", 2100),
        ("7d", 2700),
        ("9d", 2700),
        ("3p", 2700),
    ],
)
def test_d2_newcomer_starts_at_the_ufgo_table_1_bound(grade: str, start: float) -> None:
    out = rate([("n", None, grade)], [])
    assert player(out, "n").before == start
    assert player(out, "n").after == start


def test_d2_newcomer_without_grade_starts_at_zero() -> None:
    out = rate([("n", None, None), ("m", 70, "24k")], [(1, "n", "m", "white")])
    assert player(out, "n").before == 0
    assert player(out, "n").after == 5  # a win below 100 on 19x19


# --- D1, D3, D4: what is rated, round by round ---------------------------------------------


def test_d1_every_game_is_rated_and_a_player_without_games_keeps_his_rating() -> None:
    out = rate(
        [("a", 1500, "6k"), ("b", 1500, "6k"), ("idle", 1234.5, "8k")],
        [(1, "a", "b", "draw"), (2, "b", "a", "draw")],
    )
    assert len(player(out, "a").games) == 2 and len(player(out, "b").games) == 2
    idle = player(out, "idle")
    assert (idle.before, idle.after, idle.change, idle.games) == (1234.5, 1234.5, 0, ())
    assert idle.history == {"above_100": True}


def test_d3_rounds_go_in_increasing_order_whatever_the_input_order_and_gaps() -> None:
    players: list[PlayerSpec] = [("a", 1800, "3k"), ("b", 1700, "4k"), ("c", 1650, "5k")]
    in_order: list[GameSpec] = [
        (1, "a", "b", "white"),
        (2, "c", "a", "black"),
        (3, "b", "c", "draw"),
    ]
    shuffled: list[GameSpec] = [
        (9, "b", "c", "draw"),
        (1, "a", "b", "white"),
        (5, "c", "a", "black"),
    ]
    first, second = rate(players, in_order), rate(players, shuffled)
    for pid in ("a", "b", "c"):
        assert player(first, pid).after == player(second, pid).after
    assert [g.round for g in player(second, "b").games] == [1, 9]


def test_d4_two_games_in_a_round_use_round_start_ratings_and_apply_in_order() -> None:
    # P (110) loses to Q (110), then beats R (110), both in round 1.
    k1_110, k2_110 = 116 - 6 * 0.1, (3100 - 110) / 50000
    loss = k1_110 * (0 - 0.5 + k2_110)  # about -50.8: takes P to the floor
    win = k1_110 * (1 - 0.5 + k2_110)  # computed from R0 = 110, not from the floored 100
    # Q's win is anomalous by formula (8); look at the first calculation only.
    single: dict[str, JSON] = {"max_recalculations": 0}
    players: list[PlayerSpec] = [("P", 110, "20k"), ("Q", 110, "20k"), ("R", 110, "20k")]
    loss_first = rate(players, [(1, "Q", "P", "white"), (1, "P", "R", "white")], params=single)
    assert [g.change for g in player(loss_first, "P").games] == pytest.approx([-10, win])
    assert player(loss_first, "P").after == pytest.approx(100 + win)
    win_first = rate(players, [(1, "P", "R", "white"), (1, "Q", "P", "white")], params=single)
    assert player(win_first, "P").after == pytest.approx(110 + win + loss)


def test_d4_the_boundary_admits_two_games_of_a_player_in_one_round() -> None:
    document: dict[str, JSON] = {
        "system": "rivne",
        "event": {"id": "t", "date": "2024-05-01"},
        "players": [{"id": pid, "rating": 1500, "grade": "6k"} for pid in ("P", "Q", "R")],
        "games": [
            {"round": 1, "white": "P", "black": "Q", "result": "white"},
            {"round": 1, "white": "R", "black": "P", "result": "white"},
        ],
    }
    result: Any = rate_json(document)
    assert [len(p["games"]) for p in result["players"]] == [2, 1, 1]


# --- D5, D6, D8, D12: which rating feeds which quantity ---------------------------------------


def test_d5_expectation_from_start_ratings_a_and_k1_from_current() -> None:
    # Round 1: A beats B; round 2: A beats C. SE of round 2 from the starts 1800/1650.
    out = rate(
        [("A", 1800, "3k"), ("B", 1700, "4k"), ("C", 1650, "5k")],
        [(1, "A", "B", "white"), (2, "C", "A", "black")],
    )
    game = player(out, "A").games[1]
    se_c = sigma((1800 - 1650) / a_of(1650))  # C has not played yet: current = start
    assert game.expected == pytest.approx(1 - se_c, abs=1e-12)
    r0 = 1800 + player(out, "A").games[0].change
    k1_now = 35 + (31 - 35) * (r0 - 1800) / 100
    assert game.change == pytest.approx(k1_now * (1 - (1 - se_c) + (3100 - r0) / 50000))


def test_d5_a_uses_player_as_current_rating() -> None:
    # C (1650) loses to X in round 1, then draws B (1700) in round 2: a from C's current rating.
    out = rate(
        [("X", 1650, "5k"), ("B", 1700, "4k"), ("C", 1650, "5k")],
        [(1, "X", "C", "white"), (2, "B", "C", "draw")],
    )
    c_now = 1650 + player(out, "C").games[0].change
    assert player(out, "C").games[1].expected == pytest.approx(sigma(50 / a_of(c_now)), abs=1e-12)


def test_d5_table_iii_band_from_the_opponents_current_rating() -> None:
    # Q starts at 210 (band 200-399) but drops below 200 in round 1; P (50) then beats him.
    out = rate(
        [("P", 50, "25k"), ("Q", 210, "19k"), ("T", 210, "19k")],
        [(1, "T", "Q", "white"), (2, "Q", "P", "black")],
    )
    assert player(out, "Q").games[0].change < -10  # Q is now below 200
    assert player(out, "P").games[0].change == 5 + 3  # band 100-199, not 5


def test_d6_on_equal_start_ratings_black_is_player_a() -> None:
    # Handicap game, equal starts, grade difference 3: the correction goes to Black.
    out = rate([("W", 1500, "3k"), ("B", 1500, "6k")], [(1, "W", "B", "white", 3)])
    se_black = sigma((1500 - (1500 + 250)) / a_of(1500))
    assert player(out, "B").games[0].expected == pytest.approx(se_black, abs=1e-12)
    k1_1500, k2_1500 = 47, (3100 - 1500) / 50000
    assert player(out, "W").games[0].change == pytest.approx(
        0.7 * k1_1500 * (1 - (1 - se_black) + k2_1500)  # White is player B: Kф(3) = 0.7
    )
    assert player(out, "B").games[0].change == pytest.approx(k1_1500 * (0 - se_black + k2_1500))


def test_d8_a_is_70_above_2700() -> None:
    out = rate([("W", 2900, "9d"), ("B", 2800, "9d")], [(1, "W", "B", "draw")])
    assert player(out, "B").games[0].expected == pytest.approx(sigma(100 / 70), abs=1e-12)
    assert player(out, "B").games[0].change == pytest.approx(
        10 * (0.5 - sigma(100 / 70) + (3100 - 2800) / 50000)
    )


def test_d8_d12_low_player_a_uses_raw_rating_in_a_and_x10_in_formula_1() -> None:
    # c (450) beats a (40): ΔR = 450 + 900 − 10·40 = 950, a = 205 − 40/20.
    out = rate([("c", 450, "17k"), ("a", 40, "26k")], [(1, "c", "a", "white")])
    se_a = sigma((450 - (10 * 40 - 900)) / (205 - 40 / 20))
    assert player(out, "c").games[0].expected == pytest.approx(1 - se_a, abs=1e-12)
    assert player(out, "a").games[0].expected is None


def test_d12_a_player_who_crossed_100_keeps_his_low_start_in_formula_1() -> None:
    # P (98) beats Q (98): 98 + 5 → 130. Round 2 P (now 130) loses to R (500): formula (5),
    # ΔR = 500 − (10·98 − 900) = 420, a from P's current 130.
    out = rate(
        [("P", 98, "21k"), ("Q", 98, "21k"), ("R", 500, "16k")],
        [(1, "P", "Q", "white"), (2, "R", "P", "white")],
    )
    p = player(out, "P")
    assert p.games[0].change == 32  # 130 − 98
    se_p = sigma(420 / a_of(130))
    assert p.games[1].expected == pytest.approx(se_p, abs=1e-12)
    assert p.games[1].change == pytest.approx((116 - 6 * 0.3) * (0 - se_p + 2970 / 50000))
    r = player(out, "R")
    assert r.games[0].change == pytest.approx(95 * (1 - (1 - se_p) + 2600 / 50000))


# --- D7, D10, D21, D25: handicap -----------------------------------------------------------


def test_d7_n_is_the_grade_difference_not_the_stones() -> None:
    players: list[PlayerSpec] = [("W", 2320, "3d"), ("B", 2050, "1k")]
    one_stone = rate(players, [(1, "W", "B", "black", 1)])
    three_stones = rate(players, [(1, "W", "B", "black", 3)])
    assert one_stone.players == three_stones.players
    assert player(one_stone, "B").games[0].expected == pytest.approx(
        sigma((2320 - (2050 + 250)) / a_of(2050)), abs=1e-12
    )


def test_d7_equal_grades_in_a_handicap_game_get_no_correction() -> None:
    out = rate([("W", 1520, "6k"), ("B", 1500, "6k")], [(1, "W", "B", "white", 2)])
    assert player(out, "B").games[0].expected == pytest.approx(sigma(20 / a_of(1500)), abs=1e-12)
    assert player(out, "W").games[0].change == pytest.approx(
        (47 - 4 * 0.2) * (1 - (1 - sigma(20 / a_of(1500))) + (3100 - 1520) / 50000)
    )


def test_d7_a_missing_grade_comes_from_the_start_rating() -> None:
    graded = rate([("W", 1850, "3k"), ("B", 1550, "6k")], [(1, "W", "B", "black", 3)])
    ungraded = rate([("W", 1850, "3k"), ("B", 1550, None)], [(1, "W", "B", "black", 3)])
    assert graded.players == ungraded.players


@pytest.mark.parametrize("d", [1, 2, 5, 9])
def test_d10_kf_only_for_the_stronger_player(d: int) -> None:
    # B is 1k (index 29); W is d grades stronger. W loses, so both changes are non-zero.
    white_grade = Grade.from_rank(d)  # 1d … 9d is d grades above 1k
    out = rate([("W", 2400, str(white_grade)), ("B", 2000, "1k")], [(1, "W", "B", "black", 1)])
    se_b = sigma((2400 - (2000 + 100 * d - 50)) / a_of(2000))
    kf = (10 - d) / 10
    assert player(out, "W").games[0].change == pytest.approx(
        kf * 15 * (0 - (1 - se_b) + (3100 - 2400) / 50000)
    )
    assert player(out, "B").games[0].change == pytest.approx(27 * (1 - se_b + 1100 / 50000))


@pytest.mark.parametrize("stones", [1, 9])
def test_d25_more_than_9_grades_gives_even_odds_whatever_the_stones(stones: int) -> None:
    out = rate([("W", 2150, "1d"), ("B", 900, "12k")], [(1, "W", "B", "black", stones)])
    assert player(out, "W").games[0].expected == 0.5
    assert player(out, "B").games[0].expected == 0.5
    assert player(out, "W").games[0].change == pytest.approx(
        0.1 * (24 - 3 * 0.5) * (0 - 0.5 + 950 / 50000)
    )


def test_d21_pros_count_as_7d() -> None:
    out = rate([("W", 2700, "2p"), ("B", 2650, "7d")], [(1, "W", "B", "black", 1)])
    # d = 0: no correction, Kф = 1.
    se_b = sigma(50 / a_of(2650))
    assert player(out, "B").games[0].expected == pytest.approx(se_b, abs=1e-12)
    assert player(out, "W").games[0].change == pytest.approx(10 * (0 - (1 - se_b) + 400 / 50000))
    out = rate([("W", 2700, "1p"), ("B", 2650, "5d")], [(1, "W", "B", "black", 1)])
    assert player(out, "B").games[0].expected == pytest.approx(
        sigma((2700 - (2650 + 150)) / a_of(2650)), abs=1e-12
    )


# --- D11, D13, D14, D15, D23: numbers and the rules below 100 ------------------------------------


def test_d11_ratings_are_not_rounded() -> None:
    out = rate([("X", 1520, "6k"), ("Y", 1500, "6k")], [(1, "X", "Y", "draw")])
    after = player(out, "Y").after
    assert after is not None and after != round(after, 6)


@pytest.mark.parametrize(("start", "after"), [(98, 130), (96, 110), (95, 100), (90, 95)])
def test_d13_crossing_100_upwards_converts_1_to_10(start: float, after: float) -> None:
    out = rate([("P", start, "21k"), ("Q", 50, "25k")], [(1, "P", "Q", "white")])
    assert player(out, "P").after == after
    assert player(out, "P").history == {"above_100": after >= 100}


def test_d13_a_loss_below_100_still_gains_a_point() -> None:
    out = rate([("P", 40, "26k"), ("Q", 2000, "1k")], [(1, "Q", "P", "white")])
    assert player(out, "P").games[0].change == 1


def test_d13_the_floor_stops_a_loss_at_100() -> None:
    out = rate([("W", 104, "20k"), ("B", 104, "20k")], [(1, "W", "B", "white")])
    assert player(out, "B").after == 100
    assert player(out, "B").games[0].change == -4


def test_d13_flag_raises_a_stored_rating_below_100_to_100() -> None:
    flagged = rate(
        [("P", 80, "22k", {"above_100": True}), ("Q", 300, "18k")], [(1, "Q", "P", "white")]
    )
    p = player(flagged, "P")
    assert p.before == 100
    assert p.after == 100  # formula (5) loss, stopped by the floor
    assert p.games[0].expected is not None
    unflagged = rate([("P", 80, "22k"), ("Q", 300, "18k")], [(1, "Q", "P", "white")])
    assert player(unflagged, "P").after == 81
    assert player(unflagged, "P").history == {"above_100": False}


def test_d14_draws_below_100_give_the_mean_and_half_the_additional_points() -> None:
    out = rate([("P", 50, "25k"), ("Q", 60, "24k")], [(1, "P", "Q", "draw")])
    assert player(out, "P").after == 53  # (5 + 1) / 2
    out = rate([("P", 50, "25k"), ("Q", 450, "17k")], [(1, "P", "Q", "draw")])
    assert player(out, "P").after == 50 + 3 + 3.5


def test_d14_half_points_count_half_toward_the_limit() -> None:
    players: list[PlayerSpec] = [("P", 10, "29k"), ("Q1", 450, "17k"), ("Q2", 450, "17k")]
    players.append(("Q3", 450, "17k"))
    two = rate(players, [(1, "P", "Q1", "draw"), (2, "P", "Q2", "draw")])
    assert not player(two, "P").anomalous  # 3.5 + 3.5 = 7 < 9
    three = rate(players, [(1, "P", "Q1", "draw"), (2, "P", "Q2", "draw"), (3, "P", "Q3", "draw")])
    assert player(three, "P").anomalous  # 10.5 ≥ 9
    assert player(three, "P").before == 100


@pytest.mark.parametrize(
    ("opponent", "bonus"), [(100, 3), (199.99, 3), (200, 5), (399.5, 5), (400, 7), (2500, 7)]
)
def test_d15_table_iii_bands_are_lower_inclusive(opponent: float, bonus: int) -> None:
    out = rate([("P", 50, "25k"), ("Y", opponent, "20k")], [(1, "Y", "P", "black")])
    assert player(out, "P").games[0].change == 5 + bonus


@pytest.mark.parametrize(("board", "win", "bonus"), [(9, 2, 3), (13, 3, 4), (19, 5, 7)])
def test_d23_fixed_points_are_per_board_and_not_scaled_by_kd(
    board: Board, win: int, bonus: int
) -> None:
    out = rate([("P", 50, "25k"), ("Y", 500, "16k")], [(1, "Y", "P", "black")], board=board)
    assert player(out, "P").after == 50 + win + bonus


# --- D16, D17, D18, D24: anomalies --------------------------------------------------------------

EX3_PLAYERS: list[PlayerSpec] = [("X", 1520, "6k"), ("Y", 1500, "6k")]


def test_d16_any_handicap_game_switches_formula_8_off_for_everybody() -> None:
    even = rate(EX3_PLAYERS, [(1, "X", "Y", "white")])
    assert player(even, "X").anomalous
    players = [*EX3_PLAYERS, ("U", 1000, "11k"), ("V", 900, "12k")]
    mixed = rate(players, [(1, "X", "Y", "white"), (1, "U", "V", "black", 1)])
    assert not player(mixed, "X").anomalous
    assert player(mixed, "X").before == 1520
    assert rivne.HANDICAP_NOTE in mixed.notes


def test_d16_formula_8_has_no_kd() -> None:
    # On 9x9 X gains 22.786/3, far below ΔRmax = 21.447 computed without Kd.
    out = rate(EX3_PLAYERS, [(1, "X", "Y", "white")], board=9)
    assert not player(out, "X").anomalous
    assert player(out, "X").change == pytest.approx(22.786493426806 / 3, abs=1e-9)


def test_d16_formula_8_applies_to_a_start_below_100() -> None:
    # P (95) beats Y (450): 95 + 12 → 100 + 10·7 = 170; gain 75 > 0.45·116·(1 + 3005/50000).
    out = rate([("P", 95, "21k"), ("Y", 450, "17k")], [(1, "Y", "P", "black")])
    p = player(out, "P")
    assert p.anomalous
    assert out.notes[0].startswith("recalculation 1: P anomalous (gain 75.0000 > max 55.3372)")
    assert out.notes[0].endswith("start 95.0000 -> 170.0000")
    assert p.before is not None and p.before >= 170
    assert p.change is not None
    ceiling = 0.45 * rivne.k1(p.before) * (1 + (3100 - p.before) / 50000)
    assert p.change <= ceiling  # the last calculation is normal


def test_d16_a_gain_must_exceed_the_maximum() -> None:
    # anomaly_factor chosen so that the maximum equals the gain of the first calculation.
    gain = 22.786493426806
    factor = gain / (46.2 * (1 + (3100 - 1520) / 50000))
    out = rate(EX3_PLAYERS, [(1, "X", "Y", "white")], params={"anomaly_factor": factor * 1.001})
    assert not player(out, "X").anomalous
    out = rate(EX3_PLAYERS, [(1, "X", "Y", "white")], params={"anomaly_factor": factor * 0.999})
    assert player(out, "X").anomalous


def test_d17_additional_points_anomaly_also_in_handicap_events() -> None:
    out = rate(
        [("P", 30, "27k"), ("Q1", 450, "17k"), ("Q2", 450, "17k")],
        [(1, "Q1", "P", "black", 9), (2, "Q2", "P", "black", 9)],
    )
    p = player(out, "P")
    assert p.anomalous and p.before == 100  # after 54 < 100: the start is 100
    assert "recalculation 1: P anomalous (14 additional points); start 30.0000 -> 100.0000" in (
        out.notes
    )


def test_d17_exactly_the_limit_is_anomalous() -> None:
    players: list[PlayerSpec] = [("P", 10, "29k")]
    players += [(f"Q{i}", 150, "20k") for i in range(3)]
    two = rate(players, [(1, "Q0", "P", "black"), (2, "Q1", "P", "black")])
    assert not player(two, "P").anomalous  # 3 + 3 = 6 < 9
    games: list[GameSpec] = [(r + 1, f"Q{r}", "P", "black") for r in range(3)]
    three = rate(players, games)
    assert player(three, "P").anomalous  # 3 + 3 + 3 = 9


def test_d17_new_start_is_the_previous_result_when_above_100() -> None:
    # On 13x13 P (92) beats two 400+ players: 92 + 3 + 4 = 99, then 99 + 7 = 106 → 160;
    # 4 + 4 = 8 ≥ 6 additional points: the new start is 160, not 100.
    out = rate(
        [("P", 92, "21k"), ("Q1", 450, "17k"), ("Q2", 450, "17k")],
        [(1, "Q1", "P", "black"), (2, "Q2", "P", "black")],
        board=13,
        params={"max_recalculations": 1},
    )
    assert "start 92.0000 -> 160.0000" in out.notes[0]
    assert player(out, "P").before == 160


def test_d18_all_anomalous_players_are_raised_at_once() -> None:
    out = rate(
        [("X1", 1520, "6k"), ("Y1", 1500, "6k"), ("X2", 1520, "6k"), ("Y2", 1500, "6k")],
        [(1, "X1", "Y1", "white"), (1, "X2", "Y2", "white")],
    )
    assert [note.split(":")[0] for note in out.notes] == ["recalculation 1"] * 2
    assert player(out, "X1").before == player(out, "X2").before == pytest.approx(1542.786493426806)
    assert player(out, "Y1").before == 1500 and not player(out, "Y1").anomalous


def test_d18_the_guard_stops_the_loop_and_says_so() -> None:
    out = rate(EX3_PLAYERS, [(1, "X", "Y", "white")], params={"max_recalculations": 0})
    x = player(out, "X")
    assert not x.anomalous and x.before == 1520
    assert x.after == pytest.approx(1542.786493426806)
    assert any("max_recalculations" in note for note in out.notes)


def test_d18_the_guard_counts_recalculations() -> None:
    # A 95 beating a 450 needs several recalculations (test_d16 above); allow only two.
    out = rate(
        [("P", 95, "21k"), ("Y", 450, "17k")],
        [(1, "Y", "P", "black")],
        params={"max_recalculations": 2},
    )
    assert sum(note.startswith("recalculation") for note in out.notes) == 2
    assert "stopped after 2 recalculations" in out.notes[-1]


def test_d24_one_win_against_an_equal_is_anomalous_until_se_is_about_058() -> None:
    out = rate([("X", 1500, "6k"), ("Y", 1500, "6k")], [(1, "X", "Y", "white")])
    x = player(out, "X")
    assert x.anomalous
    expected = x.games[0].expected
    assert expected is not None and 0.55 < expected < 0.61


# --- D19, D20, D22 --------------------------------------------------------------------------


def test_d19_game_changes_sum_to_the_total_and_expected_is_the_players_own() -> None:
    out = rate(
        [("A", 1800, "3k"), ("B", 1700, "4k"), ("C", 60, "24k")],
        [(1, "A", "B", "white"), (2, "C", "A", "black"), (3, "B", "C", "black")],
    )
    for p in out.players:
        assert p.change is not None
        assert sum(g.change for g in p.games) == pytest.approx(p.change, abs=1e-9)
    a_game, b_game = player(out, "A").games[0], player(out, "B").games[0]
    assert a_game.expected is not None and b_game.expected is not None
    assert a_game.expected + b_game.expected == pytest.approx(1, abs=1e-15)


def test_d20_history_is_always_an_object_and_extra_keys_are_ignored() -> None:
    out = rate(
        [("P", 150, "20k", {"above_100": False, "note": "x"}), ("Q", 50, "25k", {})],
        [(1, "P", "Q", "white")],
    )
    assert player(out, "P").history == {"above_100": True}
    assert player(out, "Q").history == {"above_100": False}


@pytest.mark.parametrize(
    ("history", "field"),
    [
        ("yes", "players[0].history"),
        ([True], "players[0].history"),
        ({"above_100": "true"}, "players[0].history.above_100"),
        ({"above_100": 1}, "players[0].history.above_100"),
    ],
)
def test_d20_bad_history_is_bad_input(history: JSON, field: str) -> None:
    with pytest.raises(BadInput) as error:
        rate([("P", 150, "20k", history), ("Q", 50, "25k")], [(1, "P", "Q", "white")])
    assert error.value.field == field


def test_d22_huge_differences_do_not_overflow() -> None:
    out = rate([("W", 900_000, "9d"), ("B", 100, "20k")], [(1, "W", "B", "white")])
    assert player(out, "B").games[0].expected == 0.0
    assert player(out, "W").games[0].expected == 1.0


# --- Params (B8) ----------------------------------------------------------------------------


K2_PARAMS: dict[str, JSON] = {"k2_base": 1520, "k2_divisor": 7, "max_recalculations": 0}


def test_params_kd_13_and_k2_constants_are_used() -> None:
    base = rate(EX3_PLAYERS, [(1, "X", "Y", "draw")], board=13)
    quarter = rate(EX3_PLAYERS, [(1, "X", "Y", "draw")], board=13, params={"kd_13": 0.25})
    for pid in ("X", "Y"):
        assert player(quarter, pid).games[0].change == pytest.approx(
            player(base, pid).games[0].change / 2
        )
    k2 = rate(EX3_PLAYERS, [(1, "X", "Y", "draw")], params=K2_PARAMS)
    se_y = sigma(20 / a_of(1500))
    assert player(k2, "X").games[0].change == pytest.approx((47 - 0.8) * (0.5 - (1 - se_y)))


def test_params_anomaly_factor_is_used() -> None:
    out = rate(EX3_PLAYERS, [(1, "X", "Y", "white")], params={"anomaly_factor": 0.6})
    assert not player(out, "X").anomalous


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("anomaly_factor", 0),
        ("anomaly_factor", -0.45),
        ("kd_9", "1/3"),
        ("kd_13", True),
        ("k2_divisor", None),
        ("k2_base", float("inf")),
        ("max_recalculations", -1),
        ("max_recalculations", 1.5),
        ("max_recalculations", False),
        ("epsilon", 0.016),
    ],
)
def test_params_bad_values_are_bad_input(name: str, value: JSON) -> None:
    with pytest.raises(BadInput) as error:
        rate(EX3_PLAYERS, [(1, "X", "Y", "white")], params={name: value})
    assert error.value.field == f"params.{name}"


def test_params_that_overflow_a_rating_are_bad_input() -> None:
    with pytest.raises(BadInput) as error:
        rate(EX3_PLAYERS, [(1, "X", "Y", "white")], params={"k2_divisor": 5e-324})
    assert error.value.field == "params"
