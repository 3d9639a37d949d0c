"""The 84 real EGD tables: every one parses, and export → re-parse gives the same structure."""

from __future__ import annotations

import re

import pytest

import tournaments.formats as formats
from tests.formats.helpers import TABLES, assert_well_formed
from tournaments.formats import egd

TABLE_FILES = sorted(TABLES.glob("*.txt"))
PIN_AT_END = re.compile(r"\|\s*(\d{8})\s*$")


def test_all_84_tables_are_there() -> None:
    assert len(TABLE_FILES) == 84


@pytest.mark.parametrize("path", TABLE_FILES, ids=lambda p: p.name)
def test_real_table_parses_and_round_trips(path) -> None:
    data = path.read_bytes()
    results = formats.parse(data, "egd", path.name)
    assert_well_formed(results)
    assert results.details.rounds > 0
    # One entry per round for everyone: a game or a bye.
    for player in results.players:
        taken = [g.round for g in results.games if player.key in (g.white, g.black)]
        taken += [b.round for b in results.byes if b.player == player.key]
        assert sorted(taken) == list(range(1, results.details.rounds + 1))
    # The PINs of the file, read independently of the parser.
    text = data.decode("utf-8")
    pins = [m.group(1) for line in text.splitlines() if (m := PIN_AT_END.search(line))]
    assert sorted(p.egd_pin for p in results.players if p.egd_pin) == sorted(pins)

    written = egd.write(results)
    again = egd.parse(written)
    assert again == results
    # Equality covers these; spelled out because they are what must survive.
    assert [p.egd_pin for p in again.players] == [p.egd_pin for p in results.players]
    assert [p.grade for p in again.players] == [p.grade for p in results.players]
    assert [(g.white, g.black, g.handicap, g.colours_known) for g in again.games] == [
        (g.white, g.black, g.handicap, g.colours_known) for g in results.games
    ]


def test_known_lines_of_amp2006() -> None:
    results = egd.parse((TABLES / "amp2006.txt").read_text())
    first = results.player("1")
    assert (first.family_name, first.given_name, first.grade) == ("Chwedyna", "Kamil", "2d")
    assert (first.country, first.club, first.egd_pin) == ("PL", "Kedz", "13513786")
    # `  1 … 4+/w  3-/b …`: round 1 White against 4 and won; round 2 Black against 3 and lost.
    round1 = next(g for g in results.games if g.round == 1 and "1" in (g.white, g.black))
    assert (round1.white, round1.black, round1.result, round1.handicap) == ("1", "4", "white", 0)
    round2 = next(g for g in results.games if g.round == 2 and "1" in (g.white, g.black))
    assert (round2.white, round2.black, round2.result) == ("3", "1", "white")
    # `  8 Mos Ewa … 0=` in round 6: half a point without a game.
    assert any(b.player == "8" and b.round == 6 and b.points == 0.5 for b in results.byes)
    assert results.details.komi == 6.5
    assert results.details.handicap_rule == 9
    assert results.details.start_date.isoformat() == "2006-07-20"
    assert results.details.city == "Przystanek Alaska"


def test_forfeits_in_real_tables() -> None:
    mpk = egd.parse((TABLES / "mpk2025.txt").read_text())
    # `3 … 7+!b0` and `7 … 3-!w0`: won by default, with colours, never rated.
    forfeit = next(g for g in mpk.games if g.kind == "forfeit")
    assert (forfeit.round, forfeit.white, forfeit.black, forfeit.result) == (3, "7", "3", "black")
    assert not forfeit.is_rated

    wagc = egd.parse((TABLES / "wagc2021.txt").read_text())
    # Players 47 and 57 both have `-!` against each other in round 2: both lost by default.
    double = next(g for g in wagc.games if g.kind == "forfeit")
    assert {double.white, double.black} == {"47", "57"}
    assert double.result == "none"
    assert (wagc.points_of("47"), wagc.points_of("57")) == (2.0, 1.0)  # nobody scored the forfeit
    # `0+!`: a free win by default is a bye with a point.
    assert any(b.player == "52" and b.kind == "forfeit" and b.points == 1.0 for b in wagc.byes)


def test_score_columns_that_look_like_results_are_not_rounds() -> None:
    # mpj2025 writes tied SOS values as `358=`; the rounds are the longest run of results.
    results = egd.parse((TABLES / "mpj2025.txt").read_text())
    assert results.details.rounds == 5


def test_real_table_warnings() -> None:
    online = egd.parse((TABLES / "mpj2021.txt").read_text())
    assert online.details.tournament_class == "D"
    assert not online.details.is_rated_class
    assert any("Class D" in p.message for p in online.warnings)

    same_colour = egd.parse((TABLES / "mpj2012u12.txt").read_text())
    assert any("same colour" in p.message and p.line == 11 for p in same_colour.warnings)

    bare_grade = egd.parse((TABLES / "amp2006.txt").read_text())
    assert bare_grade.player("23").grade == "11k"
