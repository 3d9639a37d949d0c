"""Small pure helpers about members, free of the database."""

from __future__ import annotations

import datetime as dt

MID_YEAR = (7, 1)  # orr.md D8: a birth year alone counts from 1 July


def effective_birth_date(birth_date: dt.date | None, birth_year: int | None) -> dt.date | None:
    """The birth date ages are counted from: the date, else 1 July of the year, else None."""
    if birth_date is not None:
        return birth_date
    if birth_year is None or not dt.MINYEAR <= birth_year <= dt.MAXYEAR:
        return None
    return dt.date(birth_year, *MID_YEAR)
