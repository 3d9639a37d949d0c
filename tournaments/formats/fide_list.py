"""The FIDE rating list as FIDE's download gives it (fixed-width TXT, e.g.
`standard_rating_list.txt`): ID, name, federation, sex, titles, rating, games, K,
birth year, flag; or FIDE's combined list (`players_list_foa.txt`: standard, rapid and
blitz rating, games and K, the kind chosen). Columns are found from the header line
(`ID Number  Name … Flag`); without one, FIDE's documented positions are used. The rating column is named by the
month (e.g. `SEP24`). A row with its ID blank (our own export of a player who has no FIDE
ID) is read too, keyed by its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from tournaments.formats.list_model import ListRow, RatingListFile, rows_or_refuse
from tournaments.formats.model import ProblemLog

# FIDE's documented start of each column (0-based) in the standard list's TXT file.
DEFAULT_STARTS = {
    "id": 0, "name": 15, "fed": 76, "sex": 80, "tit": 84, "wtit": 89, "otit": 94, "foa": 109,
    "rating": 113, "games": 119, "k": 123, "bday": 126, "flag": 132,
}  # fmt: skip
_HEADER_LABELS = (
    ("id", "ID Number"), ("name", "Name"), ("fed", "Fed"), ("sex", "Sex"), ("tit", "Tit"),
    ("wtit", "WTit"), ("otit", "OTit"), ("foa", "FOA"),
)  # fmt: skip
_TAIL_LABELS = (
    ("games", r"Gms|SGm|RGm|BGm|Gm"), ("k", r"K|SK|Rk|BK"), ("bday", r"B-day"), ("flag", r"Flag"),
)  # fmt: skip
TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
Kind = Literal["standard", "rapid", "blitz"]
# The combined list's rating, games and K columns of each kind.
COMBINED: dict[str, tuple[str, str, str]] = {
    "standard": ("SRtng", "SGm", "SK"),
    "rapid": ("RRtng", "RGm", "Rk"),
    "blitz": ("BRtng", "BGm", "BK"),
}


def _starts(header: str, kind: Kind = "standard") -> dict[str, int] | None:
    """Where each column starts, read from the header line (None: not a header)."""
    if not header.lstrip().startswith("ID Number"):
        return None
    starts: dict[str, int] = {}
    for key, label in _HEADER_LABELS:
        found = re.search(rf"(?<!\S){re.escape(label)}(?!\S)", header)
        if found is None:
            return None
        starts[key] = found.start()
    tail = {m.group(): m.start() for m in re.finditer(r"\S+", header) if m.start() > starts["foa"]}
    if all(label in tail for labels in COMBINED.values() for label in labels):
        return _combined_starts(starts, tail, kind)
    rating = re.search(r"(?<=FOA)\s+(\S+)", header)
    if rating is None:
        return None
    starts["rating"] = rating.start(1)
    at = rating.end(1)
    for key, pattern in _TAIL_LABELS:
        found = re.compile(rf"(?<!\S)(?:{pattern})(?!\S)").search(header, at)
        if found is None:
            return None
        starts[key] = found.start()
        at = found.end()
    return starts


def _combined_starts(starts: dict[str, int], tail: dict[str, int], kind: Kind) -> dict[str, int]:
    """FIDE's combined list (`players_list_foa.txt`): the chosen kind's three columns are
    the rating, games and K; the others only bound them."""
    chosen = dict(zip(("rating", "games", "k"), COMBINED[kind], strict=True))
    for label, at in tail.items():
        starts[f"other {label}"] = at
    for key, label in chosen.items():
        starts[key] = tail[label]
        del starts[f"other {label}"]
    for key, label in (("bday", "B-day"), ("flag", "Flag")):
        if label in tail:
            starts[key] = tail[label]
            del starts[f"other {label}"]
    starts["combined"] = -1  # a marker, not a column
    return starts


def _fields(line: str, starts: dict[str, int]) -> dict[str, str]:
    order = sorted(((k, v) for k, v in starts.items() if v >= 0), key=lambda item: item[1])
    fields = {}
    for index, (key, start) in enumerate(order):
        end = order[index + 1][1] if index + 1 < len(order) else None
        fields[key] = line[start:end].strip()
    return fields


def _names(text: str) -> tuple[str, str]:
    """FIDE writes 'Family, Given'."""
    family, _, given = text.partition(",")
    return family.strip(), given.strip()


def parse(text: str, filename: str | None = None, kind: Kind = "standard") -> RatingListFile:
    """FIDE's TXT list; of the combined list, the `kind` of rating chosen (players without
    one are not in that list, counted in one warning)."""
    problems = ProblemLog()
    rows: list[ListRow] = []
    starts = DEFAULT_STARTS
    seen: dict[str, int] = {}
    unrated = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        header = _starts(line, kind)
        if header is not None:
            starts = header
            continue
        fields = _fields(line, starts)
        if "combined" in starts and not fields["rating"]:
            unrated += 1
            continue
        if fields["id"] and fields["id"] in seen:
            problems.error(
                number, f"FIDE ID {fields['id']} is listed twice (line {seen[fields['id']]})."
            )
            continue
        row = fide_row(number, fields, problems, lambda key, at=starts: at[key] + 1)
        if problems.full:
            break
        if row is not None:
            if row.fide_id:
                seen[row.fide_id] = number
            rows.append(row)
    if unrated:
        problems.warn(None, f"{unrated} players have no {kind} rating; they are not in this list.")
    if not rows and not problems.has_errors:
        problems.error(None, "No player rows found: is this a FIDE rating list (TXT)?")
    left_out = rows_or_refuse(rows, problems)
    return RatingListFile("fide", tuple(rows), None, problems.warnings(), left_out)


def fide_row(
    number: int, fields: dict[str, str], problems: ProblemLog, column: Callable[[str], int | None]
) -> ListRow | None:
    """One player of a FIDE list (TXT or XML) from its fields, or None and its errors."""
    errors_before = problems.error_count
    fide_id = fields["id"]
    if not fide_id and fields["name"]:
        pass  # no FIDE ID (our own export of a player who has none): keyed by its line
    elif not fide_id.isdigit() or len(fide_id) > 12:
        problems.error(number, f"{fide_id[:20]!r} is not a FIDE ID.", column("id"))
    rating_text = fields["rating"]
    if not rating_text.isdigit() or not 0 < int(rating_text) < 4000:
        problems.error(number, f"{rating_text[:20]!r} is not a rating.", column("rating"))
    games, k_factor, birth = fields["games"], fields["k"], fields["bday"]
    for label, value, key in (("games", games, "games"), ("K", k_factor, "k")):
        if value and not value.isdigit():
            problems.error(number, f"{label} must be a number, not {value[:20]!r}.", column(key))
    if birth and birth != "0000" and (not birth.isdigit() or not 1880 <= int(birth) <= 2100):
        problems.error(number, f"{birth[:20]!r} is not a birth year.", column("bday"))
    family, given = _names(fields["name"])
    if not family:
        problems.error(number, "The row has no name.", column("name"))
    sex = fields["sex"].lower()
    if sex not in ("", "m", "f"):
        problems.error(number, f"Sex is M or F, not {fields['sex'][:5]!r}.", column("sex"))
    if problems.error_count > errors_before:
        return None
    title = fields["tit"].upper() or fields["wtit"].upper()
    fed = fields["fed"].upper()
    return ListRow(
        line=number,
        key=fide_id or f"line {number}",
        rating=float(rating_text),
        family_name=family,
        given_name=given,
        federation=fed if re.fullmatch(r"[A-Z]{3}", fed) else None,
        fide_id=fide_id or None,
        sex=sex or None,  # type: ignore[arg-type]
        birth_year=int(birth) if birth.isdigit() and int(birth) >= 1880 else None,
        title=title if title in TITLES else None,
        games=int(games) if games else None,
        k_factor=int(k_factor) if k_factor else None,
        inactive="i" in fields["flag"].lower(),
    )


_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def header(listfile: RatingListFile) -> str:
    """FIDE's header line; the rating column is named by the list's month (SEP24)."""
    day = listfile.date
    month = f"{_MONTHS[day.month - 1]}{day.year % 100:02d}" if day else "SEP24"
    return (
        f"{'ID Number':<15}{'Name':<61}{'Fed':<4}{'Sex':<4}{'Tit':<5}{'WTit':<5}{'OTit':<15}"
        f"{'FOA':<4}{month:<6}{'Gms':<4}{'K':<3}{'B-day':<6}Flag"
    )


def write(listfile: RatingListFile) -> str:
    """The rows in FIDE's layout, each column where FIDE's file has it: a woman's title
    (WGM …) in WTit, the flag `w` for a woman and `i` for an inactive player, as FIDE
    writes them."""
    lines = [header(listfile)]
    for row in listfile.rows:
        name = f"{row.family_name}, {row.given_name}" if row.given_name else row.family_name
        title = row.title or ""
        women_title = title if title.startswith("W") else ""
        open_title = "" if women_title else title
        flag = ("w" if row.sex == "f" else "") + ("i" if row.inactive else "")
        lines.append(
            f"{row.fide_id or '':<15}{name[:60]:<61}{row.federation or '':<4}"
            f"{(row.sex or '').upper():<4}{open_title:<5}{women_title:<5}{'':<15}{'':<4}"
            f"{round(row.rating):<6}{row.games if row.games is not None else '':<4}"
            f"{row.k_factor if row.k_factor is not None else '':<3}"
            f"{row.birth_year or '':<6}{flag}".rstrip()
        )
    return "\n".join(lines) + "\n"
