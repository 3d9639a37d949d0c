"""Issue 53: FIDE's combined TXT list (standard, rapid and blitz columns; "K must be a
number" refused it) and FIDE's XML lists, the kind of rating chosen."""

from __future__ import annotations

import pytest

from tournaments.formats.model import FormatError
from tournaments.formats.rating_lists import LIST_FORMATS, parse_rating_list

# The header of players_list_foa.txt as FIDE writes it (its layout, with made-up rows).
HEADER = (
    "ID Number      Name                                                         Fed Sex Tit "
    " WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)


def _line(**values: str) -> str:
    """A row with each value at its column's start in HEADER."""
    chars = [" "] * (len(HEADER) + 4)
    for label, value in values.items():
        at = {"ID": 0, "Name": 15}.get(label)
        at = (HEADER + " ").index(f" {label} ") + 1 if at is None else at
        chars[at : at + len(value)] = list(value)
    return "".join(chars).rstrip()


COMBINED = "\n".join(
    [
        HEADER,
        _line(ID="1503014", Name="Carlsen, Magnus", Fed="NOR", Sex="M", Tit="GM",
              SRtng="2831", SGm="9", SK="10", RRtng="2828", RGm="12", Rk="10",
              BRtng="2886", BGm="20", BK="10", **{"B-day": "1990"}),
        _line(ID="14109603", Name="Muzychuk, Anna", Fed="UKR", Sex="F", Tit="GM", WTit="WGM",
              SRtng="2522", SGm="11", SK="10", BRtng="2410", BGm="4", BK="20",
              **{"B-day": "1990"}, Flag="w"),
    ]
) + "\n"  # fmt: skip


@pytest.mark.parametrize(
    ("fmt", "ratings", "k_factors"),
    [
        ("fide", {"1503014": 2831.0, "14109603": 2522.0}, [10, 10]),
        ("fide-rapid", {"1503014": 2828.0}, [10]),
        ("fide-blitz", {"1503014": 2886.0, "14109603": 2410.0}, [10, 20]),
    ],
)
def test_the_combined_txt_list_reads_the_kind_chosen(fmt, ratings, k_factors) -> None:
    listfile = parse_rating_list(COMBINED.encode(), fmt)
    assert {row.key: row.rating for row in listfile.rows} == ratings
    assert [row.k_factor for row in listfile.rows] == k_factors
    muzychuk = [row for row in listfile.rows if row.key == "14109603"]
    if muzychuk:
        assert (muzychuk[0].family_name, muzychuk[0].birth_year, muzychuk[0].sex) == (
            "Muzychuk",
            1990,
            "f",
        )
    if fmt == "fide-rapid":
        assert [str(w) for w in listfile.warnings] == [
            "1 players have no rapid rating; they are not in this list."
        ]


XML = """<?xml version="1.0" encoding="UTF-8"?>
<playerslist>
<player>
<fideid>1503014</fideid>
<name>Carlsen, Magnus</name>
<country>NOR</country>
<sex>M</sex>
<title>GM</title>
<w_title></w_title>
<rating>2831</rating>
<games>9</games>
<k>10</k>
<rapid_rating>2828</rapid_rating>
<rapid_games>12</rapid_games>
<rapid_k>10</rapid_k>
<blitz_rating></blitz_rating>
<blitz_games></blitz_games>
<blitz_k></blitz_k>
<birthday>1990</birthday>
<flag></flag>
</player>
<player>
<fideid>34100002</fideid>
<name>Koval&#39;, Daria</name>
<country>UKR</country>
<sex>F</sex>
<rating>1650</rating>
<games>x7</games>
<k>20</k>
<birthday>2011</birthday>
<flag>wi</flag>
</player>
<player>
<fideid>14109336</fideid>
<name>Ivanchuk, Vasyl</name>
<country>UKR</country>
<sex>M</sex>
<title>GM</title>
<rating>2626</rating>
<games>0</games>
<k>10</k>
<birthday>1969</birthday>
<flag>i</flag>
</player>
</playerslist>
"""


def test_the_xml_list_reads_standard_or_the_kind_chosen_and_leaves_a_bad_row_out() -> None:
    standard = parse_rating_list(XML.encode(), "fide-xml")
    assert {row.key: row.rating for row in standard.rows} == {
        "1503014": 2831.0,
        "14109336": 2626.0,
    }
    ivanchuk = standard.rows[1]
    assert (ivanchuk.family_name, ivanchuk.title, ivanchuk.inactive) == ("Ivanchuk", "GM", True)
    assert [(p.line, p.message) for p in standard.left_out] == [
        (22, "games must be a number, not 'x7'.")  # the line its <player> starts on
    ]
    rapid = parse_rating_list(XML.encode(), "fide-xml-rapid")
    assert {row.key: row.rating for row in rapid.rows} == {"1503014": 2828.0}


def test_an_xml_file_without_players_is_refused() -> None:
    with pytest.raises(FormatError, match="No <player> rows"):
        parse_rating_list(b"<html><body>not a list</body></html>", "fide-xml")


def test_every_list_format_is_offered() -> None:
    assert {"fide-rapid", "fide-blitz", "fide-xml", "fide-xml-rapid", "fide-xml-blitz"} <= set(
        LIST_FORMATS
    )
