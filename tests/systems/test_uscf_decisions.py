"""`uscf`: one test (or a few) per decision U1-U12 of shared/spec/uscf.md, plus params."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest

from ratings.systems import uscf
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

GameSpec = tuple[int, str, str, Result]


def rate(
    ratings: dict[str, float | None],
    games: list[GameSpec],
    params: dict[str, JSON] | None = None,
    handicap: int = 0,
) -> EventOutput:
    event = EventInput(
        system="uscf",
        params=params or {},
        event=Event(id="t", date=dt.date(2002, 3, 4)),
        players=tuple(Player(id=pid, rating=rating) for pid, rating in ratings.items()),
        games=tuple(
            Game(round=rnd, white=w, black=b, result=res, handicap=handicap)
            for rnd, w, b, res in games
        ),
    )
    return uscf.rate(event)


def player(output: EventOutput, pid: str) -> PlayerOutput:
    return next(p for p in output.players if p.id == pid)


def after(output: EventOutput, pid: str) -> float | None:
    return player(output, pid).after


def exact_expectation(dr: int) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        return float(1 / (Decimal(10) ** (Decimal(dr) / 400) + 1))


# --- U1: dr = opponent - own; 10(dr/400) is a power -------------------------------


def test_u1_beating_a_player_800_higher_earns_about_k() -> None:
    out = rate({"low": 1200, "high": 2000}, [(1, "low", "high", "white")])
    assert after(out, "low") == 1232  # 32 * (1 - 1/101) = 31.68 -> 32
    assert after(out, "high") == 1968
    assert player(out, "low").games[0].expected == pytest.approx(1 / 101, rel=1e-15)


def test_u1_favourite_expects_more_than_half() -> None:
    out = rate({"a": 1800, "b": 1600}, [(1, "a", "b", "draw")])
    favourite, underdog = player(out, "a").games[0].expected, player(out, "b").games[0].expected
    assert favourite is not None and underdog is not None
    assert favourite > 0.5 > underdog
    assert after(out, "a") == 1800 - 8  # 32 * (0.5 - 0.7597) = -8.3 -> -8


def test_u1_expectation_is_not_rounded() -> None:
    out = rate({"a": 1616, "c": 1750}, [(1, "a", "c", "white")])
    assert player(out, "a").games[0].expected == exact_expectation(134)
    assert player(out, "c").games[0].expected == exact_expectation(-134)


# --- U2: one game at a time, in (round, input position) order ---------------------


def test_u2_second_game_uses_the_rating_after_the_first() -> None:
    out = rate(
        {"a": 1600, "b": 1600, "c": 1600},
        [(1, "a", "b", "white"), (2, "a", "c", "white")],
    )
    # Round 2: a is 1616 and c 1600: 32 * (1 - 1/(10^(-16/400) + 1)) = 15.26 -> 15.
    assert [g.change for g in player(out, "a").games] == [16, 15]
    assert after(out, "a") == 1631


def test_u2_games_are_sorted_by_round_not_input_order() -> None:
    games: list[GameSpec] = [(1, "a", "b", "white"), (2, "a", "c", "black")]
    ratings: dict[str, float | None] = {"a": 1700, "b": 1500, "c": 1900}
    assert rate(ratings, games) == rate(ratings, list(reversed(games)))
    assert [g.round for g in player(rate(ratings, list(reversed(games))), "a").games] == [1, 2]


def test_u2_two_games_in_one_round_are_played_in_input_order() -> None:
    ratings: dict[str, float | None] = {"a": 1600, "b": 1400, "c": 2000}
    games: list[GameSpec] = [(1, "a", "b", "white"), (1, "a", "c", "black")]
    forward = rate(ratings, games)
    backward = rate(ratings, list(reversed(games)))
    assert [g.opponent for g in player(forward, "a").games] == ["b", "c"]
    assert [g.opponent for g in player(backward, "a").games] == ["c", "b"]
    # a meets c at 1608 in one order and at 1600 in the other, so the expectations differ.
    assert player(forward, "c").games[0].expected != player(backward, "c").games[0].expected


def test_u2_both_players_use_their_rating_from_before_the_game() -> None:
    out = rate({"a": 1600, "b": 1600}, [(1, "a", "b", "white")])
    assert [g.expected for g in player(out, "a").games] == [0.5]
    assert [g.expected for g in player(out, "b").games] == [0.5]
    assert (after(out, "a"), after(out, "b")) == (1616, 1584)


# --- U3: K from the category just before each game; half-open bounds --------------


@pytest.mark.parametrize(
    ("rating", "category", "k"),
    [(-50, 0, 32), (0, 0, 32), (2099, 0, 32), (2100, 1, 24), (2399, 1, 24), (2400, 2, 16)],
)
def test_u3_categories_are_half_open(rating: int, category: int, k: int) -> None:
    assert uscf.category(rating) == category
    assert uscf.k_factor(rating) == k


@pytest.mark.parametrize(("rating", "k"), [(2099, 32), (2100, 24), (2399, 24), (2400, 16)])
def test_u3_k_of_the_pre_game_rating(rating: int, k: int) -> None:
    out = rate({"a": rating, "b": rating}, [(1, "a", "b", "white")], {"crossing": False})
    assert after(out, "a") == rating + k // 2
    assert after(out, "b") == rating - k // 2


def test_u3_category_changes_between_games() -> None:
    out = rate(
        {"a": 2090, "b": 2090, "c": 2111},
        [(1, "a", "b", "white"), (2, "a", "c", "white")],
        {"crossing": False},
    )
    # After round 1 a is 2106, in 2100-2399, so round 2 uses K 24: 24 * (1 - We) = 12.3.
    assert [g.change for g in player(out, "a").games] == [16, 12]


# --- U4: integer points, at least min_change for a decisive game ------------------


def test_u4_heavy_favourite_gains_one_point() -> None:
    out = rate({"h": 2000, "l": 1200}, [(1, "h", "l", "white")])
    assert [g.change for g in player(out, "h").games] == [1]
    assert [g.change for g in player(out, "l").games] == [-1]


def test_u4_min_change_zero_is_plain_rounding() -> None:
    out = rate({"h": 2000, "l": 1200}, [(1, "h", "l", "white")], {"min_change": 0})
    assert (after(out, "h"), after(out, "l")) == (2000, 1200)


def test_u4_min_change_can_be_raised() -> None:
    out = rate({"h": 2000, "l": 1200}, [(1, "h", "l", "white")], {"min_change": 5})
    assert (after(out, "h"), after(out, "l")) == (2005, 1195)


def test_u4_a_draw_has_no_minimum() -> None:
    out = rate({"a": 1700, "b": 1700}, [(1, "a", "b", "draw")])
    assert [g.change for g in player(out, "a").games] == [0]
    assert [g.change for g in player(out, "b").games] == [0]


def test_u4_points_never_exceed_k() -> None:
    assert uscf.points(32, Decimal(1), Decimal(0), 16) == 32
    assert uscf.points(16, Decimal(0), Decimal(1), 16) == -16
    assert uscf.points(16, Decimal(1), Decimal("0.999"), 16) == 16


# --- U5: crossing factors exactly as published (1.33 and 0.66, not 4/3 and 2/3) ---


@pytest.mark.parametrize(
    ("old", "new", "adjusted"),
    [
        (2090, 2115, Fraction("2111.25")),  # C0 -> C1, gain shrinks
        (2105, 2087, Fraction("2082.71")),  # C1 -> C0, loss grows
        (2395, 2407, Fraction("2404.62")),  # C1 -> C2, gain shrinks
        (2405, 2397, Fraction("2395.5")),  # C2 -> C1, loss grows
        (2105, 2120, 2120),  # no crossing
    ],
)
def test_u5_crossing_adjustment_is_exact(old: int, new: int, adjusted: Fraction) -> None:
    assert uscf.crossing_adjustment(old, new) == adjusted


def test_u5_crossing_down_makes_the_loss_larger() -> None:
    games: list[GameSpec] = [(1, "v", "u", "white")]
    with_crossing = rate({"u": 2105, "v": 1900}, games)
    without = rate({"u": 2105, "v": 1900}, games, {"crossing": False})
    assert (after(with_crossing, "u"), after(without, "u")) == (2083, 2087)


def test_u5_crossing_up_makes_the_gain_smaller() -> None:
    games: list[GameSpec] = [(1, "x", "y", "white")]
    with_crossing = rate({"x": 2090, "y": 2300}, games)
    without = rate({"x": 2090, "y": 2300}, games, {"crossing": False})
    assert (after(with_crossing, "x"), after(without, "x")) == (2111, 2115)


def test_u5_crossing_2400_downwards_uses_one_and_a_half() -> None:
    # 2400 loses 16 (16 * 0.9693 = 15.51) to 1800: 2384 -> 2400 - 16 * 1.5 = 2376, so the
    # game costs 24 points although K is 16.
    out = rate({"a": 2400, "b": 1800}, [(1, "a", "b", "black")])
    assert (after(out, "a"), after(out, "b")) == (2376, 1831)


# --- U6: a game never crosses two categories ---------------------------------------


def test_u6_biggest_possible_jump_stays_within_one_category() -> None:
    out = rate({"a": 2099, "b": 3000}, [(1, "a", "b", "white")], {"min_change": 16})
    assert uscf.category(2099) == 0
    assert uscf.category(after(out, "a") or 0) == 1


# --- U7: one rounding, after the crossing adjustment, half away from zero ---------


def test_u7_half_tie_rounds_the_adjusted_rating() -> None:
    out = rate({"c": 2405, "d": 2405}, [(1, "c", "d", "black")])
    assert after(out, "c") == 2396  # 2395.5, not 2400 + round(-4.5) = 2395


def test_u7_non_integer_rating_is_rounded_by_its_first_game() -> None:
    out = rate({"a": 1500.4, "b": 1500.4, "c": 1500.5, "d": 1500.5}, [])
    assert after(out, "a") == 1500.4
    out = rate(
        {"a": 1500.4, "b": 1500.4, "c": 1500.5, "d": 1500.5},
        [(1, "a", "b", "draw"), (1, "c", "d", "draw")],
    )
    assert [after(out, pid) for pid in "abcd"] == [1500, 1500, 1501, 1501]
    assert player(out, "c").change == 0.5


def test_u7_rounding_is_half_away_from_zero_for_negative_ratings() -> None:
    out = rate({"a": -2.5, "b": -2.5}, [(1, "a", "b", "draw")], {"floor": -1000})
    assert (after(out, "a"), after(out, "b")) == (-3, -3)


def test_u7_round_half_away_helper() -> None:
    assert uscf.round_half_away(Fraction("2395.5")) == 2396
    assert uscf.round_half_away(Fraction("-2.5")) == -3
    assert uscf.round_half_away(Fraction("2082.49")) == 2082
    assert uscf.round_half_away(7) == 7


# --- U8: the floor, applied last ---------------------------------------------------


def test_u8_floor_stops_a_loss() -> None:
    out = rate({"f": 110, "g": 100}, [(1, "f", "g", "black")])
    assert after(out, "f") == 100
    assert [g.change for g in player(out, "f").games] == [-10]


def test_u8_the_floor_never_lifts_a_rating() -> None:
    # Revised: R = max(round(Ra), min(Ro, 100)). Before, a 50 who lost went to 100.
    out = rate(
        {"a": 50, "b": 60, "c": 90, "d": 90}, [(1, "a", "b", "black"), (1, "c", "d", "white")]
    )
    assert after(out, "a") == 50 and player(out, "a").change == 0
    assert [g.change for g in player(out, "a").games] == [0]
    assert after(out, "c") == 106 and after(out, "d") == 90  # equal ratings: +16; the loser stays
    # Both sides of the floor: from 101 and 100 a loss stops at 100, from 99 it stays at 99.
    out = rate({"x": 101, "y": 100, "z": 99, "w": 1000}, [(1, "w", p, "white") for p in "xyz"])
    assert [after(out, p) for p in "xyz"] == [100, 100, 99]
    # A win from below the floor moves as usual: 99 beats 1000 -> 99 + 32 = 131.
    assert after(rate({"z": 99, "w": 1000}, [(1, "z", "w", "white")]), "z") == 131


def test_u8_a_non_integer_rating_below_the_floor_is_taken_down_by_a_loss() -> None:
    # Ratings are whole after each game (U7) and a loss never raises one: 90.5 -> 90, not 91.
    out = rate({"a": 90.5, "b": 1000}, [(1, "b", "a", "white")])
    assert after(out, "a") == 90 and player(out, "a").change == -0.5


def test_u8_floor_is_a_parameter() -> None:
    out = rate({"f": 110, "g": 100}, [(1, "f", "g", "black")], {"floor": 0})
    assert after(out, "f") == 94


# --- U9: newcomers start at 1600, never provisional --------------------------------


def test_u9_newcomer_starts_at_1600_and_history_is_ignored() -> None:
    event = EventInput(
        system="uscf",
        params={},
        event=Event(id="t", date=dt.date(2002, 3, 4)),
        players=(
            Player(id="n", rating=None, history={"anything": 1}),
            Player(id="o", rating=1600),
        ),
        games=(Game(round=1, white="n", black="o", result="draw"),),
    )
    newcomer = player(uscf.rate(event), "n")
    assert (newcomer.before, newcomer.after, newcomer.history) == (1600, 1600, None)
    assert newcomer.provisional is False
    assert newcomer.rated is True


def test_u9_start_is_a_parameter() -> None:
    out = rate({"n": None}, [], {"start": 1500})
    assert (player(out, "n").before, after(out, "n")) == (1500, 1500)


# --- U10: players without games are unchanged --------------------------------------


def test_u10_player_without_games_is_unchanged() -> None:
    out = rate({"a": 1900, "b": 1800, "idle": 57}, [(1, "a", "b", "white")])
    idle = player(out, "idle")
    assert (idle.before, idle.after, idle.change, idle.games) == (57, 57, 0, ())


# --- U11: per-game output ----------------------------------------------------------


def test_u11_per_game_changes_sum_to_total_including_crossing_and_floor() -> None:
    out = rate(
        {"x": 2090, "y": 2300, "f": 110, "g": 100},
        [(1, "x", "y", "white"), (2, "y", "x", "white"), (1, "f", "g", "black")],
    )
    for result in out.players:
        assert sum(g.change for g in result.games) == result.change
    assert [g.change for g in player(out, "x").games] == [21, -7]


# --- U12: inputs that do not apply -------------------------------------------------


def test_u12_handicap_grade_and_event_fields_are_ignored() -> None:
    games: list[GameSpec] = [(1, "a", "b", "black")]
    plain = rate({"a": 1700, "b": 1650}, games)
    with_handicap = rate({"a": 1700, "b": 1650}, games, handicap=7)
    assert plain == with_handicap
    event = EventInput(
        system="uscf",
        params={},
        event=Event(id="t", date=dt.date(2002, 3, 4), klass="C", board=9, official=False),
        players=(
            Player(id="a", rating=1700, grade=Grade.parse("5k"), birth_date=dt.date(2000, 1, 1)),
            Player(id="b", rating=1650, grade=Grade.parse("3d")),
        ),
        games=(Game(round=1, white="a", black="b", result="black"),),
    )
    assert uscf.rate(event) == plain


def test_u12_negative_handicap_is_bad_input() -> None:
    with pytest.raises(BadInput) as caught:
        rate({"a": 1700, "b": 1650}, [(1, "a", "b", "black")], handicap=-1)
    assert caught.value.field == "games[0].handicap"


# --- Part D: output fields and params -----------------------------------------------


def test_output_flags_and_note() -> None:
    out = rate({"a": 1700, "b": 1650}, [(1, "a", "b", "black")])
    assert (out.system, out.event) == ("uscf", "t")
    assert len(out.notes) == 1
    for result in out.players:
        assert (result.rated, result.provisional, result.anomalous) == (True, False, False)
        assert result.history is None
        assert isinstance(result.after, int)


def test_system_registration_entry() -> None:
    assert uscf.SYSTEM.code == "uscf"
    assert dict(uscf.SYSTEM.params) == {
        "start": 1600,
        "floor": 100,
        "crossing": True,
        "min_change": 1,
    }
    assert uscf.SYSTEM.needs_grade is False


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"k": 32}, "params.k"),
        ({"start": "1600"}, "params.start"),
        ({"start": True}, "params.start"),
        ({"start": float("inf")}, "params.start"),
        ({"floor": 100.5}, "params.floor"),
        ({"floor": 10**400}, "params.floor"),
        ({"start": -(10**400)}, "params.start"),
        ({"start": 1e7}, "params.start"),
        ({"floor": None}, "params.floor"),
        ({"crossing": "yes"}, "params.crossing"),
        ({"crossing": 1}, "params.crossing"),
        ({"min_change": 17}, "params.min_change"),
        ({"min_change": -1}, "params.min_change"),
        ({"min_change": 1.5}, "params.min_change"),
        ({"min_change": True}, "params.min_change"),
    ],
)
def test_bad_params_values(params: dict[str, JSON], field: str) -> None:
    with pytest.raises(BadInput) as caught:
        rate({"a": 1700, "b": 1650}, [(1, "a", "b", "black")], params)
    assert caught.value.field == field


def test_good_params_values_are_accepted() -> None:
    params: dict[str, JSON] = {"start": 1500.5, "floor": 50.0, "crossing": False, "min_change": 16}
    out = rate({"a": None, "b": 40}, [(1, "a", "b", "black")], params)
    assert player(out, "a").before == 1500.5
    # b (40, below the 50 floor) beats a at We = 0.0002: +32 -> 72; a 1500.5 - 32 -> 1469.
    assert (after(out, "a"), after(out, "b")) == (1469, 72)


@pytest.mark.parametrize("rating", [float("nan"), float("inf"), "1600", True])
def test_non_numeric_ratings_are_bad_input(rating: object) -> None:
    with pytest.raises(BadInput) as caught:
        rate({"a": 1700, "b": rating}, [(1, "a", "b", "black")])  # type: ignore[dict-item]
    assert caught.value.field == "players[1].rating"


def test_unknown_player_in_a_game_is_bad_input() -> None:
    with pytest.raises(BadInput) as caught:
        rate({"a": 1700, "b": 1650}, [(1, "a", "b", "white"), (2, "a", "zz", "white")])
    assert caught.value.field == "games[1].black"
