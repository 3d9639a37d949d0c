"""Dates as results files write them: ISO, `YYYY/MM/DD`, `DD.MM.YYYY` (also `28. 07. 2005`),
`DD/MM/YYYY`, month names in English, Russian and Ukrainian (`May 10, 2020`, `10 мая
2020`, `10 травня 2020`), TRF round dates `YY/MM/DD`.

A date is read only where the text leaves one reading: `05/06/2010` may be 5 June or
6 May, so it is `ambiguous` and a person gives the date (the application never
substitutes the clock's).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

from tournaments.formats.model import ResultsFile

EARLIEST_YEAR = 1000  # four digits; `bounds` refuses what is outside 1900-2100
LATEST_YEAR = 9999

# Month names by the start of their stems, as written in every case form
# ("травня", "мая", "Sept."). Longer stems first where one is the start of another.
_MONTH_STEMS: tuple[tuple[str, int], ...] = (
    ("jan", 1), ("feb", 2), ("mar", 3), ("apr", 4), ("may", 5), ("jun", 6),
    ("jul", 7), ("aug", 8), ("sep", 9), ("oct", 10), ("nov", 11), ("dec", 12),
    ("январ", 1), ("феврал", 2), ("март", 3), ("апрел", 4), ("мая", 5), ("май", 5),
    ("июн", 6), ("июл", 7), ("август", 8), ("сентябр", 9), ("октябр", 10),
    ("ноябр", 11), ("декабр", 12),
    ("січ", 1), ("лют", 2), ("берез", 3), ("квіт", 4), ("трав", 5), ("черв", 6),
    ("лип", 7), ("серп", 8), ("верес", 9), ("жовт", 10), ("листопад", 11), ("груд", 12),
)  # fmt: skip

_YEAR_FIRST = re.compile(r"^(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})$")
_DOTTED = re.compile(r"^(\d{1,2})\s*\.\s*(\d{1,2})\s*\.\s*(\d{4})$")
_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})\s*[/-]\s*(\d{1,2})\s*[/-]\s*(\d{4})$")
_SHORT_YEAR_FIRST = re.compile(r"^(\d{2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})$")
_WORDS = re.compile(r"[^\W\d_]+|\d+")


@dataclass(frozen=True, slots=True)
class DateReading:
    """What a date's text says: `day` when it has one reading; `candidates` when day and
    month could be swapped; neither when nothing is readable."""

    text: str
    day: dt.date | None = None
    candidates: tuple[dt.date, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


def read_date(text: str, *, short_year: bool = False) -> DateReading:
    """The date `text` writes. `short_year`: a TRF round date (record 132) may be
    `YY/MM/DD`, the year taken in this century (FIDE's record 132 writes two digits)."""
    value = " ".join(text.split()).rstrip(".").strip()
    if not value or len(value) > 40:
        return DateReading(text)
    if (m := _YEAR_FIRST.match(value)) is not None:
        return _one(text, int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if (m := _DOTTED.match(value)) is not None:
        return _one(text, int(m.group(3)), int(m.group(2)), int(m.group(1)))
    if (m := _DAY_MONTH_YEAR.match(value)) is not None:
        return _day_or_month_first(text, int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if short_year and (m := _SHORT_YEAR_FIRST.match(value)) is not None:
        return _one(text, 2000 + int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return _with_month_name(text, value)


def _one(text: str, year: int, month: int, day: int) -> DateReading:
    found = _date(year, month, day)
    return DateReading(text, found, (found,) if found else ())


def _day_or_month_first(text: str, first: int, second: int, year: int) -> DateReading:
    """`24/09/2010` (day first, as in Europe) or `09/24/2010` (month first): each reading
    that makes a date; both, when both do and differ."""
    readings = [d for d in (_date(year, second, first), _date(year, first, second)) if d]
    readings = list(dict.fromkeys(readings))
    if len(readings) == 1:
        return DateReading(text, readings[0], tuple(readings))
    return DateReading(text, None, tuple(readings))


def _with_month_name(text: str, value: str) -> DateReading:
    """`May 10, 2020`, `10 May 2020`, `10 мая 2020 г.`, `10 травня 2020 р.`: a month's name,
    a day of one or two digits and a year of four."""
    words = _WORDS.findall(value.lower())
    months = [month for word in words if (month := _month_of(word)) is not None]
    numbers = [word for word in words if word.isdigit()]
    others = [
        w
        for w in words
        if not w.isdigit()
        and _month_of(w) is None
        and w not in ("г", "р", "року", "года", "the", "of")
    ]
    years = [int(n) for n in numbers if len(n) == 4]
    days = [int(n) for n in numbers if len(n) <= 2]
    if len(months) != 1 or len(years) != 1 or len(days) != 1 or others:
        return DateReading(text)
    return _one(text, years[0], months[0], days[0])


def _month_of(word: str) -> int | None:
    for stem, month in _MONTH_STEMS:
        if word.startswith(stem) and (len(stem) >= 4 or len(word) <= 9):
            return month
    return None


def _date(year: int, month: int, day: int) -> dt.date | None:
    if not EARLIEST_YEAR <= year <= LATEST_YEAR:
        return None
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def read_dates_in(text: str, *, short_year: bool = False) -> list[dt.date]:
    """Every unambiguous date among the whitespace-separated fields of `text` (TRF record
    132 writes one per round)."""
    found = []
    for field in text.split():
        reading = read_date(field, short_year=short_year)
        if reading.day is not None:
            found.append(reading.day)
    return found


def with_dates(results: ResultsFile, start: dt.date, end: dt.date) -> ResultsFile:
    """The file with the dates a person gave (the command's `--date`, the preview's fields)."""
    details = replace(results.details, start_date=start, end_date=end)
    return replace(results, details=details)
