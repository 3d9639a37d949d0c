"""Numbers in files: ASCII digits only, within bounds; sizes bounded (issue 16, item 2).

Each case used to be a ValueError/OverflowError (a 500) or was accepted (round 32767,
a tournament in 9999); now each is a FormatError naming the line.
"""

from __future__ import annotations

import json

import pytest

import tournaments.formats as formats
from tests.formats.helpers import DATA, TABLES
from tournaments.formats.bounds import MAX_PLAYERS, MAX_ROUNDS
from tournaments.formats.model import FormatError

CSV_HEAD = "round,white,black,result,handicap\n"
TRF = (DATA / "all_codes.trf16").read_text()
EGD = (TABLES / "amp2006.txt").read_text()


def problems(data: str, fmt: str) -> list[str]:
    with pytest.raises(FormatError) as caught:
        formats.parse(data.encode(), fmt)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize(
    "row",
    [
        "²,Anna,Boris,white,0",
        "①,Anna,Boris,white,0",
        "1,Anna,Boris,white,²",
        "1" + "0" * 20 + ",Anna,Boris,white,0",
        "31,Anna,Boris,white,0",
        "32767,Anna,Boris,white,0",
        "-1,Anna,Boris,white,0",
    ],
)
def test_csv_numbers(row):
    found = problems(CSV_HEAD + "1,Clara,Dmytro,draw,0\n" + row + "\n", "csv")
    assert any("line 3" in p for p in found), found


def test_csv_player_key_in_unicode_digits_is_a_name():
    results = formats.parse((CSV_HEAD + "1,²,①,white,0\n").encode(), "csv")
    assert {p.key for p in results.players} == {"²", "①"}


def test_json_round_huge_or_past_the_bound():
    for bad in (10**20, MAX_ROUNDS + 1):
        data = {
            "players": [{"id": "a"}, {"id": "b"}],
            "games": [{"round": bad, "white": "a", "black": "b", "result": "white"}],
        }
        found = problems(json.dumps(data), "json")
        assert any("games[0].round" in p for p in found), found


def test_egd_place_in_unicode_digits():
    bad = EGD.replace("\n  1 Chwedyna", "\n  ² Chwedyna", 1)
    found = problems(bad, "egd")
    assert any("place number" in p and "'²'" in p for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("001    1 m GM", "001    ² m GM", "starting rank"),
        ("Ivan                   2510", "Ivan                   25²0", "rating"),
    ],
)
def test_trf_numbers(old, new, where):
    found = problems(TRF.replace(old, new, 1), "trf16")
    assert any(where in p for p in found), found


def test_trf_rounds_record_in_unicode_digits_is_ignored_not_a_crash():
    text = TRF.replace("092 ", "142 ²\n092 ", 1)
    results = formats.parse(text.encode(), "trf16")
    assert results.details.rounds == 0 or results.details.rounds <= MAX_ROUNDS


def test_dates_outside_1900_2100():
    found = problems(TRF.replace("052 2024/05/03", "052 9999/12/31", 1), "trf16")
    assert any("9999-12-31" in p and "2100" in p for p in found), found


def test_too_many_players_names_the_first_line_past_the_bound():
    rows = [f"1,P{2 * i},P{2 * i + 1},white,0" for i in range(MAX_PLAYERS // 2 + 1)]
    found = problems(CSV_HEAD + "\n".join(rows) + "\n", "csv")
    assert any(f"line {MAX_PLAYERS // 2 + 2}" in p and "players" in p for p in found), found
