"""TRF16 and TRF26 (formats.md §2): columns, every result code, round trips, errors with columns."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.formats.helpers import DATA, assert_well_formed, messages
from tournaments.formats import trf
from tournaments.formats.model import (
    FileBye,
    FileGame,
    FilePlayer,
    FormatError,
    ResultsFile,
    TournamentDetails,
)

ALL_CODES = DATA / "all_codes.trf16"
DOUBLE_FORFEIT = DATA / "double_forfeit.trf26"

# formats.md §2, the 001 record, columns 1-based and inclusive.
SPEC_COLUMNS = {
    "record": (1, 3),
    "starting rank": (5, 8),
    "sex": (10, 10),
    "title": (11, 13),
    "name": (15, 47),
    "rating": (49, 52),
    "federation": (54, 56),
    "FIDE ID": (58, 68),
    "birth date": (70, 79),
    "points": (81, 84),
    "rank": (86, 89),
}


def cut(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1 : span[1]]


def test_all_codes_file() -> None:
    results = trf.parse(ALL_CODES.read_text())
    assert_well_formed(results)
    assert results.details.trf_version == "16"
    assert results.details.rounds == 4
    ivan = results.player("1")
    assert (ivan.family_name, ivan.given_name, ivan.title, ivan.sex) == (
        "Kovalenko",
        "Ivan",
        "GM",
        "m",
    )
    assert (ivan.fide_rating, ivan.federation, ivan.fide_id) == (2510, "UKR", "14100000")
    assert ivan.birth_date == dt.date(1985, 3, 12)
    assert (ivan.points, ivan.place) == (3.5, 1)
    olena = results.player("2")
    assert (olena.sex, olena.title, olena.birth_date, olena.birth_year) == ("f", "WIM", None, 1999)
    assert results.player("3").birth_year == 2010  # 2010/00/00: the year alone
    assert results.player("4").fide_rating is None
    assert results.player("6").given_name == ""
    details = results.details
    assert (details.name, details.city, details.federation) == (
        "Club Rapid Championship",
        "Kyiv",
        "UKR",
    )
    assert details.start_date == dt.date(2024, 5, 1)
    assert details.chief_arbiter == "Ivanenko, Petro"
    assert details.time_control is not None and details.time_control.description == "60'+30''"
    assert details.round_dates == ("24/05/01", "24/05/02", "24/05/03", "24/05/03")
    assert details.extra_records == ("XXR 4",)
    assert any("XXR" in p.message for p in results.warnings)


def game_in(results: ResultsFile, round_number: int, key: str) -> FileGame:
    return next(g for g in results.games if g.round == round_number and key in (g.white, g.black))


def bye_in(results: ResultsFile, round_number: int, key: str) -> FileBye:
    return next(b for b in results.byes if b.round == round_number and b.player == key)


def test_every_result_code() -> None:
    results = trf.parse(ALL_CODES.read_text())
    # 1 / 0 / = are rated games.
    assert (game_in(results, 1, "1").result, game_in(results, 1, "1").kind) == ("white", "played")
    assert game_in(results, 1, "2").result == "black"  # 2 had Black and scored 1
    assert (game_in(results, 2, "1").result, game_in(results, 2, "1").kind) == ("draw", "played")
    # + / - forfeits, not rated.
    forfeit = game_in(results, 3, "1")
    assert (forfeit.kind, forfeit.result, forfeit.is_rated) == ("forfeit", "white", False)
    # W / D / L: over before a move, not rated.
    assert (game_in(results, 3, "2").kind, game_in(results, 3, "2").result) == ("unrated", "draw")
    assert (game_in(results, 4, "1").kind, game_in(results, 4, "1").result) == ("unrated", "black")
    assert not any(g.is_rated for g in results.games if g.kind != "played")
    # Byes: H half, F full, U pairing-allocated, Z zero, + without opponent, blank = nothing.
    assert (bye_in(results, 4, "2").points, bye_in(results, 4, "2").kind) == (0.5, "requested")
    assert (bye_in(results, 2, "5").points, bye_in(results, 2, "5").kind) == (1.0, "requested")
    assert (bye_in(results, 3, "4").points, bye_in(results, 3, "4").kind) == (1.0, "pairing")
    assert (bye_in(results, 4, "4").points, bye_in(results, 4, "4").kind) == (0.0, "absent")
    assert (bye_in(results, 3, "5").points, bye_in(results, 3, "5").kind) == (1.0, "forfeit")
    assert not [b for b in results.byes if b.player == "6"]
    assert not [g for g in results.games if g.round == 2 and "6" in (g.white, g.black)]


@pytest.mark.parametrize("path", [ALL_CODES, DOUBLE_FORFEIT], ids=lambda p: p.name)
@pytest.mark.parametrize("version", ["16", "26"])
def test_round_trip_in_both_versions(path, version: str) -> None:
    results = trf.parse(path.read_text())
    written = trf.write(results, version)  # type: ignore[arg-type]
    again = trf.parse(written)
    assert again.details.trf_version == version
    assert again.players == results.players
    assert again.games == results.games
    assert again.byes == results.byes
    assert [p.points for p in again.players] == [p.points for p in results.players]
    if version == results.details.trf_version:
        assert again == results


def test_trf26_specifics() -> None:
    results = trf.parse(DOUBLE_FORFEIT.read_text())
    assert results.details.trf_version == "26"
    assert results.details.rounds == 3
    double = game_in(results, 2, "1")
    assert (double.kind, double.result, double.white, double.black) == ("forfeit", "none", "3", "1")
    assert results.points_of("1") == 2.0 and results.points_of("3") == 0.5
    assert results.player("1").birth_date == dt.date(2008, 2, 29)
    assert results.details.extra_records == ("XXC white1", "DAT 0001 EMAIL roman@example.org")
    assert trf.write(results, "26").startswith("###")
    assert "\r\n142 3\r\n" in trf.write(results, "26")
    assert "142 " not in trf.write(results, "16")


def made_up_results() -> ResultsFile:
    players = (
        FilePlayer(
            "7", "Kovalenko", "Ivan", fide_id="14100000", fide_rating=2510, federation="UKR",
            title="IM", birth_date=dt.date(1985, 3, 12), birth_year=1985, sex="m", place=1,
        ),
        FilePlayer("12", "Shevchenko", "Olena", federation="UKR", birth_year=1999, sex="f", place=2),
    )  # fmt: skip
    games = (FileGame(1, "7", "12", "draw"), FileGame(2, "12", "7", "white"))
    byes = (FileBye(3, "7", 0.5, "requested"), FileBye(3, "12", 1.0, "pairing"))
    return ResultsFile(TournamentDetails(name="Cup", rounds=3), players, games, byes)


def test_written_columns_match_the_spec_table() -> None:
    lines = trf.write(made_up_results()).splitlines()
    first = next(line for line in lines if line.startswith("001    7"))
    expected = {
        "record": "001",
        "starting rank": "   7",
        "sex": "m",
        "title": " IM",
        "name": "Kovalenko, Ivan".ljust(33),
        "rating": "2510",
        "federation": "UKR",
        "FIDE ID": "   14100000",
        "birth date": "1985/03/12",
        "points": " 1.0",
        "rank": "   1",
    }
    for field, span in SPEC_COLUMNS.items():
        assert cut(first, span) == expected[field], field
    # From column 92, one 10-column block per round: opponent 4, space, colour, space, result.
    assert cut(first, (92, 101)) == "  12 w =  "
    assert cut(first, (102, 111)) == "  12 b 0  "
    assert cut(first, (112, 119)) == "0000 - H"
    second = next(line for line in lines if line.startswith("001   12"))
    assert cut(second, (70, 79)).rstrip() == "1999"
    assert cut(second, SPEC_COLUMNS["sex"]) == "w"
    assert cut(second, (112, 119)) == "0000 - U"
    assert trf.parse("\n".join(lines)).games == made_up_results().games


def test_lowercase_codes_and_crlf_are_read() -> None:
    text = ALL_CODES.read_text().replace("0000 - H", "0000 - h").replace("\n", "\r\n")
    assert trf.parse(text).players == trf.parse(ALL_CODES.read_text()).players


# ---------------------------------------------------------------- errors with line and column


def edit(line_number: int, column: int, text: str) -> str:
    """The all-codes file with `text` written over `line_number` from `column` (1-based)."""
    lines = ALL_CODES.read_text().splitlines()
    line = lines[line_number - 1].ljust(column - 1 + len(text))
    lines[line_number - 1] = line[: column - 1] + text + line[column - 1 + len(text) :]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("line", "column", "text", "error_column", "fragment"),
    [
        (13, 49, "25x0", 49, "rating '25x0' is not a whole number"),
        (13, 58, "  1410000x ", 58, "FIDE ID"),
        (13, 70, "1985/13/12", 70, "birth date"),
        (13, 81, " x.5", 81, "points"),
        (13, 5, "   x", 5, "starting rank"),
        (13, 48, "X", 48, "Column 48 should be blank"),
        (13, 99, "Q", 99, "not a TRF result code"),
        (13, 97, "x", 97, "colour 'x'"),
        (13, 92, "  4x", 92, "opponent"),
        (14, 92, "   2", 92, "cannot play himself"),
        (16, 112, "   5 w U", 112, "a bye (U) cannot have an opponent"),
        (16, 112, "0000 - 1", 119, "needs an opponent"),
        (13, 92, "   9", 92, "no player with starting rank 9"),
    ],
)
def test_errors_name_line_and_column(
    line: int, column: int, text: str, error_column: int, fragment: str
) -> None:
    with pytest.raises(FormatError) as info:
        trf.parse(edit(line, column, text))
    assert any(
        p.line == line and p.column == error_column and fragment in p.message
        for p in info.value.errors
    ), messages(info.value)


def test_error_results_disagree() -> None:
    with pytest.raises(FormatError) as info:
        trf.parse(edit(16, 99, "1"))  # 4 claims a win over 1, who also claims a win
    assert any("disagree on the result" in p.message and p.line == 13 for p in info.value.errors)


def test_error_same_colour() -> None:
    with pytest.raises(FormatError) as info:
        trf.parse(edit(16, 97, "w"))
    assert any("same colour" in p.message and p.column == 97 for p in info.value.errors)


def test_error_other_side_missing() -> None:
    with pytest.raises(FormatError) as info:
        trf.parse(edit(16, 92, "0000 - Z"))
    assert any(
        "has no opponent in that round" in p.message and p.line == 13 for p in info.value.errors
    )


def test_error_duplicate_starting_rank() -> None:
    with pytest.raises(FormatError) as info:
        trf.parse(edit(18, 5, "   5"))
    assert any("Starting rank 5 is used twice" in p.message for p in info.value.errors)


def test_error_no_players() -> None:
    with pytest.raises(FormatError, match="no player records"):
        trf.parse("012 Empty\n")
