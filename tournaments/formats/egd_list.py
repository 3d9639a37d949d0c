"""The EGD rating list in the `allworld` layout, as the EGD publishes it and OpenGotha ships
it (`egf_db.txt`, often wrapped in a little HTML):

     PIN   Name                   Club     Grade P&D    GoR    NT  Last appearance
 13286603  Aakerblom Charlie      SE  Norr    5d   --   2442    71  T160920A

Rows are found by their shape (a PIN, then the name, country, club, grade, promotion or
demotion, GoR, number of tournaments, last tournament code); the header, notes and HTML
around them are skipped. A line that starts with a PIN but has not that shape is an error.
A row of that shape with its PIN columns blank (our own export of a player who has no
PIN) is read too, keyed by its line.

`write` puts each column where the EGD's file has it, character for character, because
OpenGotha reads the list by position (PIN 2-9, name 12-48, country 50-51, club 54-57,
grade 61-63, GoR 72-75) and only the rows whose PIN columns are digits.
"""

from __future__ import annotations

import datetime as dt
import re

from clubsite.input_checks import country_or_blank
from tournaments.formats.list_model import ListRow, RatingListFile, normal_grade, rows_or_refuse
from tournaments.formats.model import ProblemLog

_ROW = re.compile(
    r"^\s*(?P<pin>\d{6,9})\s+(?P<name>.*?)\s+(?P<country>[A-Za-z]{2})\s+(?P<club>\S+)\s+"
    r"(?P<grade>\d{1,2}[kdpKDP])\s+(?P<pd>\S+)\s+(?P<gor>-?\d{1,4})\s+(?P<nt>\d{1,5})"
    r"(?:\s+(?P<last>\S+))?\s*$"
)
_PIN_FIRST = re.compile(r"^\s*\d{6,9}\s")
# The same shape with the PIN's columns blank: the name starts in column 12.
_NO_PIN_ROW = re.compile(
    r"^ {11}(?P<name>\S.*?)\s+(?P<country>[A-Za-z]{2})\s+(?P<club>\S+)\s+"
    r"(?P<grade>\d{1,2}[kdpKDP])\s+(?P<pd>\S+)\s+(?P<gor>-?\d{1,4})\s+(?P<nt>\d{1,5})"
    r"(?:\s+(?P<last>\S+))?\s*$"
)
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_HEADER_DATE = re.compile(r"^\s*\((\d{1,2} [A-Z][a-z]{2} \d{4})\)\s*$")
_EVENT_DATE = re.compile(r"^[A-Za-z](\d{2})(\d{2})(\d{2})")
UNKNOWN_CLUBS = {"xxx", "xxxx", "xx", "x", "-", "--", "?"}


def event_date(code: str | None) -> dt.date | None:
    """The date an EGD tournament code carries (T160920A: 2016-09-20), if it is one."""
    match = _EVENT_DATE.match(code or "")
    if not match:
        return None
    year, month, day = (int(part) for part in match.groups())
    try:
        return dt.date(2000 + year if year < 70 else 1900 + year, month, day)
    except ValueError:
        return None


def _list_date(line: str) -> dt.date | None:
    match = _HEADER_DATE.match(line)
    if not match:
        return None
    try:
        return dt.datetime.strptime(match.group(1), "%d %b %Y").date()
    except ValueError:
        return None


def _names(text: str) -> tuple[str, str]:
    """'Acuna Sebastian_Eduardo' → ('Acuna', 'Sebastian Eduardo'); EGD joins parts by _."""
    family, _, given = text.strip().partition(" ")
    return family.replace("_", " ").strip(), given.replace("_", " ").strip()


def _append(
    rows: list[ListRow], problems: ProblemLog, number: int, match: re.Match[str], pin: str | None
) -> None:
    grade = normal_grade(match.group("grade"))
    if grade is None:
        problems.error(number, f"{match.group('grade')!r} is not a Go grade.")
        return
    family, given = _names(match.group("name"))
    if not family:  # the EGD's own list has one such row ("_ _")
        who = f"PIN {pin}" if pin else "The row"
        problems.warn(number, f"{who} has no name; the row is left out.")
        return
    club = match.group("club")
    last = match.group("last")
    rows.append(
        ListRow(
            line=number,
            key=pin or f"line {number}",
            rating=float(match.group("gor")),
            family_name=family,
            given_name=given,
            country=country_or_blank(match.group("country")) or None,  # XX: unknown
            club=None if club.lower() in UNKNOWN_CLUBS else club,
            egd_pin=pin,
            grade=grade,
            best_grade=grade,
            tournaments=int(match.group("nt")),
            last_event=last,
            last_played=event_date(last),
        )
    )


def parse(text: str, filename: str | None = None) -> RatingListFile:
    problems = ProblemLog()
    rows: list[ListRow] = []
    seen: dict[str, int] = {}
    stated: dt.date | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if stated is None:
            stated = _list_date(line)
        if not _PIN_FIRST.match(line):
            match = _NO_PIN_ROW.match(line)
            if match is not None:
                _append(rows, problems, number, match, None)
            continue
        match = _ROW.match(line)
        if match is None:
            problems.error(
                number,
                "This row starts with a PIN but is not PIN, name, country, club, grade, "
                "P&D, GoR, tournaments, last tournament.",
            )
            if problems.full:
                break
            continue
        pin = match.group("pin")
        if pin in seen:
            problems.error(number, f"PIN {pin} is listed twice (first on line {seen[pin]}).")
            continue
        seen[pin] = number
        _append(rows, problems, number, match, pin)
    if not rows and not problems.has_errors:
        problems.error(None, "No player rows found: is this an EGD rating list (allworld)?")
    left_out = rows_or_refuse(rows, problems)
    return RatingListFile("egd", tuple(rows), stated, problems.warnings(), left_out)


HEADER = (
    "                                                                                    Last",
    "   PIN          Name                              Club     Grade P&D    GoR    NT appearance",
)


def _word(text: str) -> str:
    """A name or club as one word: the EGD joins the parts of a name by _."""
    return "_".join(text.split())


def club_column(club: str) -> str:
    """A club as the EGD's column holds it: one word, cut at 4 characters."""
    return _word(club)[:4]


def write(listfile: RatingListFile) -> str:
    """The list in the EGD's layout: its date line as the EGD writes it (OpenGotha shows it),
    the column heads, then one row per player, each column where the EGD puts it. A name
    is cut at 37 characters and a club at 4, as in the EGD's file; P&D is not suggested."""
    lines = []
    if listfile.date is not None:
        day = listfile.date
        lines += [f"({day.day:02d} {_MONTHS[day.month - 1]} {day.year})", ""]
    lines += HEADER
    for row in listfile.rows:
        name = f"{_word(row.family_name)} {_word(row.given_name)}".strip()
        club = club_column(row.club or "") or "xxx"
        line = (
            f" {row.egd_pin or '':>8}  {name[:37]:<37} {(row.country or 'XX')[:2]:<2}  "
            f"{club:<4}   {row.grade or '':>3}  {'--':>3}   {round(row.rating):>4}   "
            f"{row.tournaments or 0:>3}  {row.last_event or ''}"
        )
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"
