"""A TRF's start and end dates (records 042 and 052) in any notation `dates.read_date`
knows, else the first and last round dates of record 132; never the clock's."""

from __future__ import annotations

import datetime as dt

from tournaments.formats.dates import read_date, read_dates_in
from tournaments.formats.model import ProblemLog, gettext_noop


def _value(header: dict[str, tuple[int, str]], code: str) -> tuple[int | None, str]:
    line, text = header.get(code, (None, ""))
    return line, text[4:].strip()


def read_header_dates(
    header: dict[str, tuple[int, str]], log: ProblemLog
) -> tuple[dt.date | None, dt.date | None]:
    """042 and 052 in any notation `dates.read_date` knows; where both are missing or
    unreadable, the first and last round dates of record 132."""
    start = _read_header_date(*_value(header, "042"), log)
    end = _read_header_date(*_value(header, "052"), log)
    if start is None and end is None:
        line, text = header.get("132", (None, ""))
        rounds = read_dates_in(text[4:], short_year=True)
        if rounds:
            log.warn(
                line,
                gettext_noop(
                    "The start and end dates are taken from the round dates (record 132): "
                    "%(start)s to %(end)s."
                ),
                start=min(rounds),
                end=max(rounds),
            )
            return min(rounds), max(rounds)
    return start, end


def _read_header_date(line: int | None, text: str, log: ProblemLog) -> dt.date | None:
    if not text:
        return None
    reading = read_date(text)
    if reading.day is not None:
        return reading.day
    if reading.ambiguous:
        log.warn(
            line,
            gettext_noop(
                "The date %(text)r may be read two ways (%(first)s or %(second)s); please "
                "give the tournament's dates."
            ),
            5,
            text=text,
            first=reading.candidates[0],
            second=reading.candidates[1],
        )
    else:
        log.warn(
            line,
            gettext_noop(
                "The date %(text)r is not a date this application can read; it was ignored."
            ),
            5,
            text=text,
        )
    return None
