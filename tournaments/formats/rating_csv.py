"""A rating list as CSV with named columns, for the systems without a published format
(UFGO, Rivne, ORR, USCF lists, a club's own spreadsheet).

Columns (the first line names them, any order; `rating` and a name are required):
key, family_name, given_name (or name: "Family Given"), native_name, country, federation,
club, egd_pin, fide_id, birth_year, sex, rating, grade, best_grade, provisional,
tournaments, games, last_played (YYYY-MM-DD), above_100 (Rivne). A row without a key is
known by its line number.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

from clubsite.input_checks import is_country
from tournaments.formats.bounds import MAX_YEAR, MIN_YEAR, file_int
from tournaments.formats.list_model import ListRow, RatingListFile, normal_grade, rows_or_refuse
from tournaments.formats.model import ProblemLog

COLUMNS = (
    "key", "family_name", "given_name", "name", "native_name", "country", "federation", "club",
    "egd_pin", "fide_id", "birth_year", "sex", "rating", "grade", "best_grade", "provisional",
    "tournaments", "games", "last_played", "above_100",
)  # fmt: skip
# "²".isdigit() is true but int("²") fails: numbers are read as ASCII digits, in range.
NUMBER_RANGES = (("birth_year", MIN_YEAR, MAX_YEAR), ("tournaments", 0, 999_999),
                 ("games", 0, 999_999))  # fmt: skip
TRUE = {"1", "yes", "true", "y", "x"}
FALSE = {"", "0", "no", "false", "n"}


def _flag(value: str) -> bool | None:
    value = value.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    return None


def parse(text: str, filename: str | None = None) -> RatingListFile:
    problems = ProblemLog()
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], ",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = [cell.strip().lower() for cell in next(reader)]
    except (StopIteration, csv.Error):
        problems.error(1, "The file has no header line naming its columns.")
        problems.raise_if_errors()
        raise AssertionError("unreachable") from None
    unknown = [name for name in header if name and name not in COLUMNS]
    if unknown:
        problems.warn(1, "Columns not used: " + ", ".join(sorted(set(unknown))[:10]) + ".")
    if "rating" not in header:
        problems.error(1, "The file needs a 'rating' column.")
    if not {"family_name", "name"} & set(header):
        problems.error(1, "The file needs a 'family_name' or a 'name' column.")
    problems.raise_if_errors()
    rows: list[ListRow] = []
    keys: dict[str, int] = {}
    try:
        for cells in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            row = _row(
                dict(zip(header, (c.strip() for c in cells), strict=False)), number, problems
            )
            if row is None:
                if problems.full:
                    break
                continue
            if row.key in keys:
                problems.error(number, f"Key {row.key!r} is used twice (line {keys[row.key]}).")
                continue
            keys[row.key] = number
            rows.append(row)
    except csv.Error as error:
        # The rest of the file is not read: refused, not cut short.
        problems.error(reader.line_num, f"The CSV cannot be read: {error}.")
        problems.raise_if_errors()
    if not rows and not problems.has_errors:
        problems.error(None, "The file has no players.")
    left_out = rows_or_refuse(rows, problems)
    return RatingListFile("csv", tuple(rows), None, problems.warnings(), left_out)


def _row(cells: dict[str, str], number: int, problems: ProblemLog) -> ListRow | None:
    errors = problems.error_count
    get = cells.get
    family, given = get("family_name", ""), get("given_name", "")
    if not family and get("name"):
        family, _, given = get("name", "").partition(" ")
    if not family:
        problems.error(number, "The row has no name.")
    rating: float | None = None
    try:
        rating = float(get("rating", "").replace(",", "."))
        if not -10000 < rating < 10000:
            raise ValueError
    except ValueError:
        problems.error(number, f"{get('rating', '')[:20]!r} is not a rating.")
    numbers: dict[str, int | None] = {}
    for name, low, high in NUMBER_RANGES:
        value = get(name, "")
        numbers[name] = file_int(value, minimum=low, maximum=high)
        if value and numbers[name] is None:
            problems.error(
                number, f"{name} must be a whole number from {low} to {high}, not {value[:20]!r}."
            )
    grades: dict[str, str | None] = {}
    for name in ("grade", "best_grade"):
        value = get(name, "")
        grades[name] = normal_grade(value) if value else None
        if value and grades[name] is None:
            problems.error(number, f"{value[:20]!r} is not a Go grade.")
    last_played = None
    if get("last_played"):
        try:
            last_played = dt.date.fromisoformat(get("last_played", ""))
        except ValueError:
            problems.error(number, "last_played must be a date, YYYY-MM-DD.")
    flags: dict[str, bool | None] = {}
    for name in ("provisional", "above_100"):
        flags[name] = _flag(get(name, ""))
        if flags[name] is None:
            problems.error(number, f"{name} is yes or no, not {get(name, '')[:20]!r}.")
    sex = get("sex", "").lower()
    if sex not in ("", "m", "f"):
        problems.error(number, f"Sex is m or f, not {sex[:5]!r}.")
    country, federation = get("country", "").upper(), get("federation", "").upper()
    if country and not re.fullmatch(r"[A-Z]{2}", country):
        problems.error(number, f"Country is two letters, not {country[:10]!r}.")
    elif country and not is_country(country):
        problems.warn(number, f"{country} is not a country code (ISO 3166); it is left out.")
        country = ""
    if problems.error_count > errors or rating is None:
        return None
    return ListRow(
        line=number,
        key=get("key", "") or f"line {number}",
        rating=rating,
        family_name=family.strip(),
        given_name=given.strip(),
        native_name=get("native_name", ""),
        country=country or None,
        federation=federation if re.fullmatch(r"[A-Z]{3}", federation) else None,
        club=get("club") or None,
        egd_pin=get("egd_pin") or None,
        fide_id=get("fide_id") or None,
        sex=sex or None,  # type: ignore[arg-type]
        birth_year=numbers["birth_year"],
        grade=grades["grade"],
        best_grade=grades["best_grade"] or grades["grade"],
        provisional=bool(flags["provisional"]),
        tournaments=numbers["tournaments"],
        games=numbers["games"],
        last_played=last_played,
        above_100=flags["above_100"] if get("above_100") else None,
    )


def write(listfile: RatingListFile) -> str:
    out = io.StringIO()
    names = [c for c in COLUMNS if c != "name"]
    writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    for row in listfile.rows:
        values = {name: getattr(row, name, None) for name in names}
        values["rating"] = f"{row.rating:g}"
        values["provisional"] = "yes" if row.provisional else ""
        values["above_100"] = {True: "yes", False: "no", None: ""}[row.above_100]
        writer.writerow({k: "" if v is None else v for k, v in values.items()})
    return out.getvalue()
