"""EGD table rules (formats.md §1): syntax, handicap rule, byes, forfeits and every consistency error."""

from __future__ import annotations

import pytest

from tests.formats.helpers import assert_one_error, messages
from tournaments.formats import egd
from tournaments.formats.model import FormatError

HEADER = "; EV[Club Cup]\n; PC[UA, Rivne]\n; DT[2024-05-01,2024-05-02]\n; KM[6.5]\n"


def table(*lines: str, header: str = HEADER) -> str:
    return header + "\n".join(lines) + "\n"


GOOD = table(
    "1 Kovalenko Ivan_Petro  3d UA Rivn  2  2+/w  3+/b  |12345678",
    "2 Shevchenko Olena      1k UA Kyiv  1  1-/b  0+    |",
    "3 Bondar Taras         10k UA Rivn  0  0-    1-/w",
)


def test_good_table() -> None:
    results = egd.parse(GOOD)
    kovalenko = results.player("1")
    # `_` joins words of one name.
    assert (kovalenko.family_name, kovalenko.given_name) == ("Kovalenko", "Ivan Petro")
    assert kovalenko.egd_pin == "12345678"
    assert results.player("2").egd_pin is None  # an empty `|` is no PIN
    assert results.player("3").grade == "10k"
    assert results.details.name == "Club Cup"
    assert (results.details.country, results.details.city) == ("UA", "Rivne")
    assert results.details.rounds == 2
    assert [(g.round, g.white, g.black, g.result) for g in results.games] == [
        (1, "1", "2", "white"),
        (2, "3", "1", "black"),
    ]
    assert sorted((b.round, b.player, b.points) for b in results.byes) == [
        (1, "3", 0.0),
        (2, "2", 1.0),
    ]
    assert results.warnings == ()


def test_name_underscores_survive_writing() -> None:
    written = egd.write(egd.parse(GOOD))
    assert "Kovalenko Ivan_Petro" in written
    assert egd.parse(written) == egd.parse(GOOD)


def test_jigo_and_free_round_with_half_point() -> None:
    results = egd.parse(table("1 A B 1d UA x 2= 0=", "2 C D 1d UA x 1= 0="))
    assert results.games[0].result == "draw"
    assert [b.points for b in results.byes] == [0.5, 0.5]


def test_entries_without_colour_are_even_games_of_unknown_colour() -> None:
    results = egd.parse(table("1 A B 1d UA x 2+", "2 C D 5k UA x 1-"))
    game = results.games[0]
    assert (game.white, game.result, game.handicap, game.colours_known) == ("1", "white", 0, False)
    written = egd.write(results).splitlines()
    assert "2+" in written[-2] and "/" not in written[-2]  # no colour is invented
    assert egd.parse(egd.write(results)) == results


def test_explicit_handicap_and_colour() -> None:
    results = egd.parse(table("1 A B 1d UA x 2+/w3", "2 C D 3k UA x 1-/b3"))
    game = results.games[0]
    assert (game.white, game.black, game.handicap, game.result) == ("1", "2", 3, "white")


def test_handicap_rule_from_header() -> None:
    # h2: 1d against 6k is 6 grades apart, 6 - 2 = 4 stones; the weaker (6k) takes Black.
    header = HEADER + "; HA[h2]\n"
    results = egd.parse(table("1 A B 1d UA x 2-", "2 C D 6k UA x 1+", header=header))
    game = results.games[0]
    assert (game.white, game.black, game.handicap, game.result) == ("1", "2", 4, "black")
    assert game.colours_known
    assert results.details.handicap_rule == 2


def test_handicap_rule_is_capped_at_nine() -> None:
    results = egd.parse(table("1 A B 5d UA x 2+", "2 C D 20k UA x 1-", header="; HA[h0]\n"))
    assert results.games[0].handicap == 9


def test_h9_means_even_games_whatever_the_grades() -> None:
    results = egd.parse(table("1 A B 7d UA x 2+", "2 C D 20k UA x 1-", header="; HA[h9]\n"))
    assert results.games[0].handicap == 0


def test_handicap_rule_from_file_extension() -> None:
    text = table("1 A B 1d UA x 2+/w", "2 C D 4k UA x 1-/b", header="")
    assert egd.parse(text, "t970920b.h2").games[0].handicap == 2
    assert egd.parse(text, "t970920b.h9").games[0].handicap == 0
    assert egd.parse(text, "t970920b.txt").games[0].handicap == 0


def test_header_rule_wins_over_extension_with_a_warning() -> None:
    text = table("1 A B 1d UA x 2+/w", "2 C D 4k UA x 1-/b", header="; HA[h1]\n")
    results = egd.parse(text, "cup.h2")
    assert results.games[0].handicap == 3
    assert any("h1" in p.message and ".h2" in p.message for p in results.warnings)


def test_optional_score_columns_before_and_after_rounds() -> None:
    before = egd.parse(table("1 A B 1d UA x 9 5 49 2+/w |12345678", "2 C D 1d UA x 7 4 48 1-/b"))
    after = egd.parse(table("1 A B 1d UA x 2+/w 9 5 49 |12345678", "2 C D 1d UA x 1-/b 7 4 48"))
    assert before == after
    assert before.details.rounds == 1


def test_forfeit_game_is_not_rated() -> None:
    results = egd.parse(table("1 A B 1d UA x 2+!/w", "2 C D 1d UA x 1-!/b"))
    game = results.games[0]
    assert (game.kind, game.result, game.is_rated) == ("forfeit", "white", False)
    assert "2+!/w0" in egd.write(results)


def test_forfeit_written_like_opengotha_is_read_too() -> None:
    results = egd.parse(table("1 A B 1d UA x 2+!w0", "2 C D 1d UA x 1-!b0"))
    assert results.games[0].kind == "forfeit"


def test_header_tags() -> None:
    header = (
        "; TC[T240501A]\n; CL[B]\n; EV[Rivne Open]\n; PC[UA, Rivne]\n; DT[2024-05-01,2024-05-02]\n"
        "; HA[h9]\n; KM[7]\n; TM[75]\n; CM[Fischer 40 min + 20 s]\n"
    )
    details = egd.parse(table("1 A B 1d UA x 2+", "2 C D 1d UA x 1-", header=header)).details
    assert details.code == "T240501A"
    assert details.tournament_class == "B"
    assert details.komi == 7.0
    assert details.time_control is not None and details.time_control.adjusted_minutes == 75
    assert details.comment == "Fischer 40 min + 20 s"
    assert details.end_date is not None and details.end_date.isoformat() == "2024-05-02"


@pytest.mark.parametrize(
    ("header", "fragment"),
    [
        ("; CL[D]\n", "Class D"),
        ("; CL[X]\n", "Class X"),
        ("; QQ[whatever]\n", "QQ[…] is not known"),
        ("; DT[2024-05-02,2024-05-01]\n", "ends (2024-05-01) before it starts"),
        ("; KM[six]\n", "komi"),
    ],
)
def test_warnings_do_not_block(header: str, fragment: str) -> None:
    results = egd.parse(table("1 A B 1d UA x 2+", "2 C D 1d UA x 1-", header=header))
    assert len(results.games) == 1
    assert any(fragment in p.message for p in results.warnings), results.warnings


# ---------------------------------------------------------------- errors, one broken file each


def broken(*lines: str) -> pytest.ExceptionInfo[FormatError]:
    with pytest.raises(FormatError) as info:
        egd.parse(table(*lines))
    return info


HEADER_LINES = HEADER.count("\n")


def test_error_other_side_missing() -> None:
    info = broken("1 A B 1d UA x 2+/w", "2 C D 1d UA x 0-", "3 E F 1d UA x 0-")
    assert_one_error(info, HEADER_LINES + 1, "player 2 (line 6) has '0-'", "not a game against 1")


def test_error_results_disagree() -> None:
    info = broken("1 A B 1d UA x 2+/w", "2 C D 1d UA x 1+/b")
    assert_one_error(info, HEADER_LINES + 1, "'2+/w' and '1+/b'", "do not agree on who won")


def test_error_forfeit_on_one_side_only() -> None:
    info = broken("1 A B 1d UA x 2+!", "2 C D 1d UA x 1-")
    assert_one_error(info, HEADER_LINES + 1, "do not agree on who won")


def test_error_same_colour_in_handicap_game() -> None:
    info = broken("1 A B 1d UA x 2+/w2", "2 C D 3k UA x 1-/w2")
    assert_one_error(info, HEADER_LINES + 1, "same colour in a handicap game")


def test_same_colour_in_even_game_is_a_warning() -> None:
    results = egd.parse(table("1 A B 1d UA x 2+/w", "2 C D 1d UA x 1-/w"))
    assert not results.games[0].colours_known
    assert any("same colour" in p.message for p in results.warnings)


def test_error_handicaps_differ() -> None:
    info = broken("1 A B 1d UA x 2+/w2", "2 C D 3k UA x 1-/b3")
    assert_one_error(info, HEADER_LINES + 1, "give different handicaps")


def test_error_handicap_given_on_one_side_only_disagrees_with_the_rule() -> None:
    # Under the default even-game rule the bare `1-` means no handicap, against `/w3`.
    info = broken("1 A B 1d UA x 2+/w3", "2 C D 3k UA x 1-")
    assert_one_error(info, HEADER_LINES + 1, "give different handicaps")


def test_handicap_given_on_one_side_only_that_matches_the_rule_is_fine() -> None:
    parsed = egd.parse(table("1 A B 1d UA x 2+/w0", "2 C D 3k UA x 1-"))
    assert [(g.white, g.black, g.handicap) for g in parsed.games] == [("1", "2", 0)]


def test_error_opponent_place_does_not_exist() -> None:
    info = broken("1 A B 1d UA x 9+/w", "2 C D 1d UA x 0-")
    assert_one_error(info, HEADER_LINES + 1, "no player with place number 9")


def test_error_player_meets_himself() -> None:
    info = broken("1 A B 1d UA x 1+/w", "2 C D 1d UA x 0-")
    assert_one_error(info, HEADER_LINES + 1, "player 1 cannot play himself")


def test_error_round_counts_differ() -> None:
    info = broken("1 A B 1d UA x 2+/w 3+/b", "2 C D 1d UA x 1-/b 0-", "3 E F 1d UA x 0-")
    assert_one_error(info, HEADER_LINES + 3, "has 1 round results", "other lines have 2")


def test_error_duplicate_place_out_of_standings_order() -> None:
    info = broken("2 A B 1d UA x 0+", "1 C D 1d UA x 0+", "2 E F 1d UA x 0+")
    assert_one_error(info, HEADER_LINES + 3, "Place number 2 is used twice")


def test_shared_places_in_standings_order_number_players_by_position() -> None:
    """Issue 53: tied players share a place; opponents then name line positions."""
    results = egd.parse(table("1 A B 1d UA x 3+", "1 C D 1d UA x 0+", "3 E F 1d UA x 1-"))
    assert [(p.key, p.place) for p in results.players] == [("1", 1), ("2", 1), ("3", 3)]
    assert [(g.white, g.black, g.result) for g in results.games] == [("1", "3", "white")]
    assert any("Places are blank or shared" in str(w) for w in results.warnings)


def test_blank_places_like_opengotha_number_players_by_position() -> None:
    """Issue 53: OpenGotha leaves a tied player's place blank (it is the line above's)."""
    results = egd.parse(
        table("1 A B 1d UA x 3+/w", "  Kravets Andrii 7d UA x 0+", "3 E F 1d UA x 1-/b")
    )
    kravets = results.player("2")
    assert (kravets.family_name, kravets.given_name, kravets.place) == ("Kravets", "Andrii", 1)
    assert [(g.white, g.black) for g in results.games] == [("1", "3")]
    warning = next(w for w in results.warnings if "Places are blank" in str(w))
    assert warning.line == HEADER_LINES + 2


def test_blank_and_shared_places_survive_writing() -> None:
    results = egd.parse(
        table("1 A B 1d UA x 3+/w", "  C D 7d UA x 0+", "1 E F 1d UA x 1-/b", "4 G H 2k UA x 0-")
    )
    written = egd.write(results)
    assert [line.split()[0] for line in written.splitlines()[-4:]] == ["1", "C", "E", "4"]
    assert egd.parse(written) == results
    assert [p.place for p in egd.parse(written).players] == [1, 1, 1, 4]


def test_a_name_that_is_a_number_is_refused() -> None:
    info = broken("1 A B 1d UA x 0+", "2 2 D 1d UA x 0+")
    assert_one_error(info, HEADER_LINES + 2, "The name starts with the number 2")


def test_result_not_entered_is_an_unplayed_pairing_with_a_warning_naming_the_round() -> None:
    """Issue 53: OpenGotha's `5?` (paired, no result) and a lone `?` (no game)."""
    results = egd.parse(table("1 A B 1d UA x 2+ 3?", "2 C D 1d UA x 1- ?", "3 E F 1d UA x 0+ 1?"))
    unplayed = [g for g in results.games if g.round == 2]
    assert [(g.kind, g.result, g.is_rated) for g in unplayed] == [("unplayed", "none", False)]
    assert [(b.player, b.kind, b.points) for b in results.byes if b.round == 2] == [
        ("2", "unplayed", 0.0)
    ]
    assert [str(w) for w in results.warnings if "Round 2" in str(w)] == [
        f"line {HEADER_LINES + 1}: Round 2: 1 pairings and 1 players without an opponent"
        " have no result entered ('?'); read as not played, not rated."
    ]


def test_results_not_entered_must_agree() -> None:
    info = broken("1 A B 1d UA x 2?", "2 C D 1d UA x 1+")
    assert_one_error(info, HEADER_LINES + 1, "do not agree on who won")


def test_lone_question_mark_before_the_entries_is_a_score_column() -> None:
    """The Polish youth tables write `?` in category columns just before the rounds."""
    results = egd.parse(table("1 A B 1d UA x 0 2+", "2 C D 1d UA x ? ? 1-"))
    assert results.details.rounds == 1
    assert not results.byes


def test_lone_question_mark_is_a_round_where_the_line_is_short_of_it() -> None:
    results = egd.parse(table("1 A B 1d UA x 2+ 3+", "2 C D 1d UA x 1- ?", "3 E F 1d UA x 0 ? 1-"))
    assert results.details.rounds == 2
    assert sorted((b.round, b.player, b.kind) for b in results.byes) == [
        (1, "3", "unplayed"),
        (2, "2", "unplayed"),
    ]


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("9x A B 1d UA x 0+", "must start with the player's place number"),
        ("2 C D UA x 0+", "Could not find the grade and country"),
        ("2 C D 40k UA x 0+", "not a grade"),
        ("2 C D 1d UA x 0+ |1234", "must have 8 digits"),
        ("2 C D 1d UA x 1+/q", "is not a round result"),
        ("2 C D 1d UA x 1+w", "the colour must follow a '/'"),
        ("2 C D 1d UA x 0+/w12", "more than 9"),
        ("2 C D 1d UA x 1=!", "cannot end in jigo by default"),
    ],
)
def test_error_bad_player_line(line: str, fragment: str) -> None:
    with pytest.raises(FormatError) as info:
        egd.parse(table("1 A B 1d UA x 0+", line))
    assert any(fragment in m and f"line {HEADER_LINES + 2}" in m for m in messages(info.value)), (
        messages(info.value)
    )


def test_error_no_players() -> None:
    with pytest.raises(FormatError) as info:
        egd.parse(HEADER)
    assert "no player lines" in messages(info.value)[0]


def test_every_error_is_reported_not_only_the_first() -> None:
    with pytest.raises(FormatError) as info:
        egd.parse(table("1 A B 1d UA x 9+/w", "2 C D 1d UA x 1+/b", "3 E F 1d UA x 3+/b"))
    errors = info.value.errors
    assert len(errors) >= 3
    assert {e.line for e in errors} >= {HEADER_LINES + 1, HEADER_LINES + 2, HEADER_LINES + 3}


def test_writer_refuses_a_player_without_grade() -> None:
    results = egd.parse(GOOD)
    from dataclasses import replace

    no_grade = replace(
        results, players=(replace(results.players[0], grade=None), *results.players[1:])
    )
    with pytest.raises(FormatError, match="no grade"):
        egd.write(no_grade)
