"""Issue 53, the facts as a Hypothesis property: EGD and TRF files written with dates in
the notations files use, time controls as real files write them (and as nobody does),
classes D/X and federations of any length come back from write(parse(file)) as the file
said, in any of the encodings clubs use."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

import tournaments.formats as formats
from tournaments.formats import egd, trf
from tournaments.formats.time_text import read_egd_adjusted

PROPERTY = settings(max_examples=120, deadline=None)
DAYS = st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2099, 12, 31))
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December"]  # fmt: skip
MONTHS_UK = ["січня", "лютого", "березня", "квітня", "травня", "червня", "липня", "серпня",
             "вересня", "жовтня", "листопада", "грудня"]  # fmt: skip
MONTHS_RU = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
             "сентября", "октября", "ноября", "декабря"]  # fmt: skip
TRF_TIMES = st.sampled_from(
    ["90min/40moves+30min+30sec", "90/40+30", "40/120, 60", "G/60+30", "90'+30''", "15+10",
     "MOVES/TIME INCREMENT", "Rapid 25 min", "60 min + 5x30s"]
)  # fmt: skip
NAMES = st.sampled_from(["André", "Frédéric", "Müller", "Łukasz", "Олена", "Коваленко", "Smith"])


def notation(day: dt.date, style: int, *, comma: bool = True) -> str:
    """`day` as a file writes it: every style here leaves one reading (without `comma`
    where a comma separates the dates, as in EGD's DT[start,end])."""
    if style == 0:
        return day.isoformat()
    if style == 1:
        return day.strftime("%Y/%m/%d")
    if style == 2:
        return f"{day.day:02d}. {day.month:02d}. {day.year}"
    if style == 3 and comma:
        return f"{MONTHS_EN[day.month - 1][:3]} {day.day}, {day.year}"
    if style == 3:
        return f"{day.day} {MONTHS_EN[day.month - 1]} {day.year}"
    if style == 4:
        return f"{day.day} {MONTHS_UK[day.month - 1]} {day.year} р."
    return f"{day.day} {MONTHS_RU[day.month - 1]} {day.year}"


@PROPERTY
@given(
    start=DAYS,
    length=st.integers(0, 14),
    styles=st.tuples(st.integers(0, 5), st.integers(0, 5)),
    klass=st.sampled_from(["A", "B", "C", "D", "X", None]),
    tm=st.one_of(
        st.none(), st.integers(1, 300).map(str), st.sampled_from(["3h", "82.5", "45 min"])
    ),
    names=st.tuples(NAMES, NAMES),
    encoding=st.sampled_from(["utf-8", "iso8859_15", "cp1251", "cp1250"]),
)
def test_egd_facts_round_trip(start, length, styles, klass, tm, names, encoding) -> None:
    end = start + dt.timedelta(days=length)
    dates = [
        notation(day, style, comma=False) for day, style in zip((start, end), styles, strict=True)
    ]
    header = [f"; DT[{dates[0]},{dates[1]}]"]
    header += [f"; CL[{klass}]"] if klass else []
    header += [f"; TM[{tm}]"] if tm else []
    table = "\n".join(header) + (
        f"\n1 {names[0]} Ivan 3d UA Rivn 2+/w\n2 {names[1]} Olha 1k UA Kyiv 1-/b\n"
    )
    try:
        data = table.encode(encoding)
    except UnicodeEncodeError:
        data = table.encode("utf-8")
    results = formats.parse(data, "egd")
    details = results.details
    assert (details.start_date, details.end_date) == (start, end)
    assert details.tournament_class == klass
    assert [p.family_name for p in results.players] == list(names)
    again = egd.parse(egd.write(results))
    assert (again.details.start_date, again.details.end_date) == (start, end)
    assert again.details.tournament_class == klass
    time = again.details.time_control
    assert (time.description if time else None) == tm
    if tm:
        assert time.adjusted_minutes == read_egd_adjusted(tm)
    assert again == results


@PROPERTY
@given(
    start=DAYS,
    length=st.integers(0, 14),
    styles=st.tuples(st.integers(0, 5), st.integers(0, 5)),
    time=st.one_of(st.none(), TRF_TIMES),
    federation=st.one_of(st.sampled_from(["UKR", "Lichess", "FIDE Online"]), st.just("")),
    rounds_only=st.booleans(),
)
def test_trf_facts_round_trip(start, length, styles, time, federation, rounds_only) -> None:
    end = start + dt.timedelta(days=1 if rounds_only else length)
    lines = ["012 Property Open"]
    lines += [f"032 {federation}"] if federation else []
    if rounds_only:  # no 042/052: the round dates of record 132 stand in
        short = [d.strftime("%y/%m/%d") for d in (start, end)]
        lines.append("132" + " " * 88 + "".join(f"{d:<10}" for d in short))
    else:
        lines += [f"042 {notation(start, styles[0])}", f"052 {notation(end, styles[1])}"]
    lines += [f"122 {time}"] if time else []
    lines += [
        "001    1 m    Alpha, Anna                       2100 UKR     1234567 1990/01/01  1.0    1     2 w 1     2 b 1",
        "001    2 m    Beta, Boris                       2000 UKR     2345678 1991/01/01  1.0    2     1 b 0     1 w 0",
    ]  # fmt: skip
    results = formats.parse("\n".join(lines).encode(), "trf")
    if rounds_only and start.year < 2000:
        return  # `YY/MM/DD` reads the year in this century: older round dates are not for it
    assert (results.details.start_date, results.details.end_date) == (start, end)
    again = trf.parse(trf.write(results))
    assert (again.details.start_date, again.details.end_date) == (start, end)
    written = again.details.time_control
    assert (written.description if written else None) == time
    assert again.details.federation == federation
