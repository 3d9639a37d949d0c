"""Issue 53, the facts of real files from other programs: the encoding decided from the
bytes, dates in the notations files use (never the clock's), time controls as written.

The files are in tests/data/thirdparty/ (sources.tsv gives each one's repository and
commit); the checks read them independently of the parser where it matters.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

import tournaments.formats as formats
from tournaments.formats import FormatError, egd, trf
from tournaments.formats.dates import read_date
from tournaments.formats.time_text import is_known, read_egd_adjusted, read_time_text

THIRDPARTY = Path(__file__).resolve().parents[1] / "data" / "thirdparty"
OPENGOTHA_EXPORTS = sorted((THIRDPARTY / "egd").glob("og-export__*.h9"))


def _bytes(name: str) -> bytes:
    return (THIRDPARTY / name).read_bytes()


# --- encoding ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", OPENGOTHA_EXPORTS, ids=lambda p: p.name)
def test_opengotha_tables_are_read_as_iso_8859_15(path: Path) -> None:
    data = path.read_bytes()
    try:
        results = formats.parse(data, "egd", path.name)
    except FormatError as error:  # blank places and `?` results: the other half of issue 53
        pytest.skip(f"refused for another reason: {error}")
    assert results.encoding == "iso8859_15"
    # Every accented name of the file, read independently: ISO-8859-15 text is the truth.
    text = data.decode("iso8859_15")
    written = {w for w in re.findall(r"\S*[^\x00-\x7f]\S*", text)}
    names = {
        part.replace(" ", "_")
        for p in results.players
        for part in (p.family_name, p.given_name)
        if not part.isascii()
    }
    assert names and names <= written
    # Windows Cyrillic, tried first before, made "Andéol" of Toulouse2024 "Andйol".
    assert not any("\u0400" <= c <= "\u04ff" for name in names for c in name)


def test_a_western_name_is_not_read_as_windows_cyrillic() -> None:
    data = "1 Nemo André 3d FR Pari 2+/w\n2 Dupont Jean 1k FR Lyon 1-/b\n".encode("iso8859_15")
    results = formats.parse(data, "egd")
    assert results.player("1").given_name == "André"
    assert results.encoding == "iso8859_15"
    assert "ISO-8859-15" in results.warnings[0].message


def test_cyrillic_and_central_european_bytes_are_told_apart() -> None:
    cyrillic = "1 Коваленко Іван 3d UA Rivn 2+/w\n2 Шевченко Олена 1k UA Kyiv 1-/b\n"
    assert formats.parse(cyrillic.encode("cp1251"), "egd").player("2").given_name == "Олена"
    assert formats.parse(cyrillic.encode("koi8_u"), "egd").player("1").given_name == "Іван"
    polish = "1 Łukasz Paweł 3d PL Wars 2+/w\n2 Wiśniewski Jan 1k PL Krak 1-/b\n"
    assert formats.parse(polish.encode("cp1250"), "egd").player("1").family_name == "Łukasz"


def test_the_admin_may_choose_another_encoding() -> None:
    data = _bytes("egd/og-export__pairgoth__Toulouse2024.h9")
    chosen = formats.parse(data, "egd", encoding="cp1251")
    assert chosen.encoding == "cp1251"
    assert any("Andйol" in p.given_name for p in chosen.players)
    with pytest.raises(FormatError, match="cannot be read as UTF-8"):
        formats.parse(data, "egd", encoding="utf-8")
    with pytest.raises(FormatError, match="Unknown encoding"):
        formats.parse(data, "egd", encoding="ebcdic")


def test_trf_bytes_are_detected_too() -> None:
    text = (THIRDPARTY / "trf" / "sharly__trf-import-test.trf").read_text("utf-8")
    latin = text.replace("CHARLINE", "CHARLÈNE").encode("cp1252")
    results = formats.parse(latin, "trf")
    assert results.encoding in ("iso8859_15", "cp1252")
    assert results.player("3").family_name == "CHARLÈNE"


# --- dates ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2020-05-10", dt.date(2020, 5, 10)),
        ("2020/05/10", dt.date(2020, 5, 10)),
        ("28.07.2005", dt.date(2005, 7, 28)),
        ("28. 07. 2005", dt.date(2005, 7, 28)),
        ("24/09/2010", dt.date(2010, 9, 24)),
        ("09/24/2010", dt.date(2010, 9, 24)),
        ("May 10, 2020", dt.date(2020, 5, 10)),
        ("Jun 26, 2020", dt.date(2020, 6, 26)),
        ("10 September 2021", dt.date(2021, 9, 10)),
        ("10 мая 2020 г.", dt.date(2020, 5, 10)),
        ("3 марта 2019", dt.date(2019, 3, 3)),
        ("10 травня 2020 р.", dt.date(2020, 5, 10)),
        ("1 листопада 2018", dt.date(2018, 11, 1)),
    ],
)
def test_date_notations(text: str, day: dt.date) -> None:
    assert read_date(text).day == day


@pytest.mark.parametrize("text", ["05/06/2010", "(START DATE)", "May 2020", "31.02.2020", ""])
def test_dates_that_need_a_person(text: str) -> None:
    reading = read_date(text)
    assert reading.day is None
    assert reading.ambiguous == (text == "05/06/2010")


@pytest.mark.parametrize(
    ("name", "start", "end"),
    [
        ("competichess__testLargeFile.trf", "2020-05-10", "2020-05-10"),
        ("sharly__2020_06.trf", "2020-05-29", "2020-05-29"),
        ("sharly__2021_03.trf", "2020-06-26", "2020-06-26"),
        ("chesspairing__basic.trf", "2025-01-15", "2025-01-20"),
    ],
)
def test_trf_header_dates_as_written(name: str, start: str, end: str) -> None:
    details = formats.parse(_bytes(f"trf/{name}"), "trf").details
    assert (details.start_date, details.end_date) == (
        dt.date.fromisoformat(start),
        dt.date.fromisoformat(end),
    )


def test_trf_round_dates_stand_in_for_missing_header_dates() -> None:
    text = _bytes("trf/sharly__trf-import-test.trf").decode()
    without = "\n".join(line for line in text.splitlines() if line[:3] not in ("042", "052"))
    results = formats.parse(without.encode(), "trf")
    # 132 writes `25/09/13  25/09/13  25/09/13  25/09/14  25/09/14` (YY/MM/DD).
    assert (results.details.start_date, results.details.end_date) == (
        dt.date(2025, 9, 13),
        dt.date(2025, 9, 14),
    )
    assert any("record 132" in w.message for w in results.warnings)


def test_a_file_without_dates_gives_none() -> None:
    details = formats.parse(_bytes("trf/bbpsharly__indiv_299_bonus.trf"), "trf").details
    assert (details.start_date, details.end_date) == (None, None)


def test_egd_dates_that_could_be_swapped_are_not_guessed() -> None:
    table = "; DT[05/06/2010,06/06/2010]\n1 A B 3d DE Berl 2+/w\n2 C D 1k DE Berl 1-/b\n"
    results = egd.parse(table)
    assert (results.details.start_date, results.details.end_date) == (None, None)
    assert any("two ways" in w.message for w in results.warnings)
    day_first = egd.parse(table.replace("05/06/2010,06/06/2010", "28. 07. 2005,30.07.2005"))
    assert day_first.details.start_date == dt.date(2005, 7, 28)
    assert day_first.details.end_date == dt.date(2005, 7, 30)


# --- time controls ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "basic", "increment", "overtime"),
    [
        ("90min/40moves+30min+30sec", 120, 30, None),
        ("90/40+30", 120, None, None),
        ("40/120, 60", 180, None, None),
        ("G/60+30", 60, 30, None),
        ("90'+30''", 90, 30, None),
        ("90+30", 90, 30, None),
        ("60", 60, None, None),
        ("3h", 180, None, None),
        ("60 min + 5x30s", 60, None, "byoyomi 5x30s"),
        ("40min + canadian 25/10min", 40, None, "canadian 25/10min"),
    ],
)
def test_time_control_notations(text: str, basic: float, increment, overtime) -> None:
    time = read_time_text(text)
    assert time is not None and is_known(time)
    assert (time.basic_minutes, time.fischer_increment_seconds, time.overtime) == (
        basic,
        increment,
        overtime,
    )
    assert time.description == text


@pytest.mark.parametrize("text", ["MOVES/TIME INCREMENT", "rapid", "90/", "+30"])
def test_time_controls_not_recognised_are_unknown_but_kept(text: str) -> None:
    time = read_time_text(text)
    assert time is not None and not is_known(time) and time.description == text


def test_real_trf_time_controls_keep_their_text() -> None:
    basic = formats.parse(_bytes("trf/chesspairing__basic.trf"), "trf").details.time_control
    assert basic is not None and basic.description == "90min/40moves+30min+30sec"
    assert basic.basic_minutes == 120 and basic.fischer_increment_seconds == 30
    written = trf.write(formats.parse(_bytes("trf/chesspairing__basic.trf"), "trf"))
    assert "122 90min/40moves+30min+30sec" in written.splitlines()
    dubov_text = _bytes("trf/dubov__baku_test.trf").decode()
    assert read_time_text(re.search(r"^122 (.*)$", dubov_text, re.M).group(1)).basic_minutes is None
    assert formats.parse(_bytes("trf/sharly__2020_06.trf"), "trf").details.time_control is None


def test_egd_tm_as_written_comes_back() -> None:
    results = formats.parse(_bytes("egd/honte__kpmc2003.txt"), "egd")
    time = results.details.time_control
    assert time is not None and (time.adjusted_minutes, time.description) == (180, "3h")
    assert "; TM[3h]" in egd.write(results).splitlines()
    assert read_egd_adjusted("82,5") == 82.5
    no_tm = formats.parse(_bytes("egd/honte__wagc1985.txt"), "egd")
    assert no_tm.details.time_control is None
    assert "TM[" not in egd.write(no_tm)


# --- class and federation as written ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "klass"),
    [
        ("og-export__pairgoth__notsimplemm.h9", "X"),
        ("opengotha__ioct_20_02.h9", "D"),
        ("og-export__pairgoth__Toulouse2024.h9", "B"),
    ],
)
def test_egd_class_is_written_back(name: str, klass: str) -> None:
    results = formats.parse(_bytes(f"egd/{name}"), "egd", name)
    assert results.details.tournament_class == klass
    assert f"; CL[{klass}]" in egd.write(results).splitlines()


def test_trf_federation_is_kept_whole() -> None:
    details = formats.parse(_bytes("trf/competichess__testLargeFile.trf"), "trf").details
    assert details.federation == "Lichess"
