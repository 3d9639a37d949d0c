"""Reading an EGD table: its header tags, then one player line at a time; the entries are
paired into games by `pairing`."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import replace
from pathlib import PurePath

from ratings.systems.grades import Grade
from tournaments.formats.bounds import file_int
from tournaments.formats.dates import read_date
from tournaments.formats.egd.layout import (
    BARE_GRADE_PATTERN,
    COUNTRY_PATTERN,
    ENTRY_HELP,
    ENTRY_PATTERN,
    EVEN_GAMES_RULE,
    GRADE_PATTERN,
    KNOWN_TAGS,
    LOOKS_LIKE_ENTRY_PATTERN,
    MAX_HANDICAP,
    MAX_ROUNDS,
    NO_CLUB,
    PIN_PATTERN,
    RATED_CLASSES,
    RULE_IN_FILENAME_PATTERN,
    RULE_PATTERN,
    TAG_LINE_PATTERN,
    TAG_PATTERN,
    UNRATED_CLASSES,
    Entry,
    Row,
    clean_field,
)
from tournaments.formats.egd.pairing import pair_entries
from tournaments.formats.egd.places import claim_unknown_rounds, number_by_position
from tournaments.formats.model import (
    FilePlayer,
    ProblemLog,
    ResultsFile,
    TimeControl,
    TournamentDetails,
    gettext_noop,
)
from tournaments.formats.time_text import read_egd_adjusted


def parse(text: str, filename: str | None = None) -> ResultsFile:
    """Read an EGD table; raise `FormatError` listing every error found."""
    log = ProblemLog()
    tags: dict[str, tuple[int, str]] = {}
    comments: list[str] = []
    rows: list[Row] = []
    unread: set[int] = set()  # places of player lines that could not be read
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if log.full:
            break
        content, _, comment = raw.partition(";")
        if not content.strip():
            _read_tags(comment, number, tags, comments, log)
            continue
        row = _read_player_line(content, number, log, unread)
        if row is not None:
            rows.append(row)
    if not rows and not log.has_errors:
        log.error(
            None,
            gettext_noop("The file has no player lines: is it really an EGD tournament table?"),
        )
    details = _read_details(tags, comments, filename, log)
    claim_unknown_rounds(rows)
    places_apart = _check_rows(rows, log)
    if not (_check_round_counts(rows, log) and places_apart):
        log.raise_if_errors()  # places twice or no results: nothing to pair by
    # The pairings are checked even when a line has errors (issue 55: a bad grade hid the
    # other errors until it was fixed); only what a refused line makes unknowable is skipped.
    rule = details.handicap_rule if details.handicap_rule is not None else EVEN_GAMES_RULE
    games, byes = pair_entries(rows, rule, log, unread=unread)
    log.raise_if_errors()
    rounds = len(rows[0].entries)
    return ResultsFile(
        details=replace(details, rounds=rounds),
        players=tuple(row.player for row in rows),
        games=tuple(games),
        byes=tuple(byes),
        warnings=log.warnings(),
    )


def _read_tags(
    comment: str,
    line: int,
    tags: dict[str, tuple[int, str]],
    comments: list[str],
    log: ProblemLog,
) -> None:
    if not TAG_LINE_PATTERN.match(comment):
        return
    for code, raw in TAG_PATTERN.findall(comment):
        value = clean_field(raw)  # as the writer writes it: one space, no ';' or ']' inside
        if code == "CM":
            comments.append(value)
        elif code in KNOWN_TAGS:
            tags[code] = (line, value)
        else:
            log.warn(
                line,
                gettext_noop("The header tag %(code)s[…] is not known and was ignored."),
                code=code,
            )


def _read_details(
    tags: dict[str, tuple[int, str]],
    comments: list[str],
    filename: str | None,
    log: ProblemLog,
) -> TournamentDetails:
    def tag(code: str) -> tuple[int | None, str]:
        return tags.get(code, (None, ""))

    country, city = _read_place(tag("PC")[1])
    start, end = _read_dates(*tag("DT"), log)
    return TournamentDetails(
        name=tag("EV")[1],
        code=tag("TC")[1] or None,
        city=city,
        country=country,
        start_date=start,
        end_date=end,
        tournament_class=_read_class(*tag("CL"), log),
        handicap_rule=_read_rule(*tag("HA"), filename, log),
        komi=_read_number(*tag("KM"), "komi", log),
        time_control=_read_time(*tag("TM"), log),
        comment="\n".join(comments),
    )


def _read_place(value: str) -> tuple[str, str]:
    """`PC[PL, Warszawa]` → ("PL", "Warszawa"); without a comma, a lone 2-letter code is a country."""
    if "," in value:
        country, _, city = value.partition(",")
        return country.strip(), city.strip()
    if COUNTRY_PATTERN.match(value):
        return value, ""
    return "", value


def _read_dates(
    line: int | None, value: str, log: ProblemLog
) -> tuple[dt.date | None, dt.date | None]:
    """`DT[start,end]` in any notation `dates.read_date` knows. A part that is unreadable,
    or whose day and month could be swapped, leaves both dates to the person importing."""
    if not value:
        return None, None
    parts = [part.strip() for part in value.split(",")][:2]
    readings = [read_date(part) for part in parts if part]
    for reading in readings:
        if reading.ambiguous:
            log.warn(
                line,
                gettext_noop(
                    "The date %(part)r in DT[…] may be read two ways (%(first)s or %(second)s); "
                    "please give the tournament's dates."
                ),
                part=reading.text,
                first=reading.candidates[0],
                second=reading.candidates[1],
            )
        elif reading.day is None:
            log.warn(
                line,
                gettext_noop(
                    "The date %(part)r in DT[…] is not a date this application can read; "
                    "please give the tournament's dates."
                ),
                part=reading.text,
            )
    if not readings or any(reading.day is None for reading in readings):
        return None, None
    start = readings[0].day
    end = readings[1].day if len(readings) > 1 else start
    if start and end and end < start:
        log.warn(
            line,
            gettext_noop(
                "The tournament ends (%(end)s) before it starts (%(start)s); please check DT[…]."
            ),
            end=end,
            start=start,
        )
    return start, end


def _read_class(line: int | None, value: str, log: ProblemLog) -> str | None:
    if not value:
        return None
    klass = value.upper()
    if klass in UNRATED_CLASSES:
        log.warn(
            line,
            gettext_noop("Class %(klass)s marks %(UNRATED_CLASSES)s: it is imported as not rated."),
            klass=klass,
            UNRATED_CLASSES=UNRATED_CLASSES[klass],
        )
    elif klass not in RATED_CLASSES:
        log.warn(
            line,
            gettext_noop(
                "The class %(value)r is not one of A, B, C, D, X; it is imported as not rated."
            ),
            value=value,
        )
    return klass


def _read_rule(line: int | None, value: str, filename: str | None, log: ProblemLog) -> int | None:
    from_header: int | None = None
    if value:
        match = RULE_PATTERN.match(value)
        if match:
            from_header = int(match.group(1))
        else:
            log.warn(
                line,
                gettext_noop(
                    "The handicap rule HA[%(value)s] is not like h9 or h2; it was ignored."
                ),
                value=value,
            )
    from_name: int | None = None
    if filename:
        match = RULE_IN_FILENAME_PATTERN.search(PurePath(filename).name)
        if match:
            from_name = int(match.group(1))
    if from_header is not None and from_name is not None and from_header != from_name:
        log.warn(
            line,
            gettext_noop(
                "The header says HA[h%(from_header)s] but the file name says .h%(from_name)s; the header's h%(from_header)s is used."
            ),
            from_header=from_header,
            from_name=from_name,
        )
    return from_header if from_header is not None else from_name


def _read_number(line: int | None, value: str, what: str, log: ProblemLog) -> float | None:
    if not value:
        return None
    try:
        return float(value.replace(",", "."))
    except ValueError:
        log.warn(
            line,
            gettext_noop("The %(what)s %(value)r is not a number; it was ignored."),
            what=what,
            value=value,
        )
        return None


def _read_time(line: int | None, value: str, log: ProblemLog) -> TimeControl | None:
    """`TM[…]` as written, with its adjusted minutes where they are readable (`82`, `3h`)."""
    if not value:
        return None
    minutes = read_egd_adjusted(value)
    if minutes is None:
        log.warn(
            line,
            gettext_noop(
                "The adjusted time TM[%(value)s] is not a number of minutes; the time control "
                "is kept as written and counts as unknown."
            ),
            value=value,
        )
    return TimeControl(adjusted_minutes=minutes, description=value)


def _read_player_line(content: str, line: int, log: ProblemLog, unread: set[int]) -> Row | None:
    body, bar, pin_text = content.partition("|")
    tokens = body.split()
    if not tokens:
        log.error(line, gettext_noop("This line has an EGD number but no player."))
        return None
    place = file_int(tokens[0], minimum=1)
    # OpenGotha leaves the place blank for a player tied with the line above.
    place_written = place is not None
    at = _find_grade(tokens, first_name=1 if place_written else 0)
    if not place_written and (at is None or tokens[0][:1].isdigit()):
        log.error(
            line,
            gettext_noop(
                "A player line must start with the player's place number, not %(tokens)r."
            ),
            tokens=tokens[0],
        )
        return None
    if at is None:
        unread.add(place)
        log.error(
            line,
            gettext_noop(
                "Could not find the grade and country after the name (expected something like 'Smith John 5k GB Lond')."
            ),
        )
        return None
    grade = _read_grade(tokens[at], line, log)  # None: refused, the line read on
    names = [token.replace("_", " ") for token in tokens[(1 if place_written else 0) : at]]
    if names[0].isdigit():
        unread.add(place)
        log.error(
            line,
            gettext_noop(
                "The name starts with the number %(name)s: is a place written twice, or a"
                " column before the name?"
            ),
            name=names[0],
        )
        return None
    country = tokens[at + 1].upper()
    rest = tokens[at + 2 :]
    club: str | None = None
    if rest and not ENTRY_PATTERN.match(rest[0]):
        club = None if NO_CLUB.match(rest[0]) else rest[0]
        rest = rest[1:]
    errors_before = log.error_count
    entries, unknown_before = _read_entries(rest, line, log)
    entries_broken = log.error_count > errors_before
    pin = _read_pin(pin_text.strip(), line, log) if bar else None
    player = FilePlayer(
        key=str(place or 0),
        family_name=names[0],
        given_name=" ".join(names[1:]),
        grade=str(grade) if grade is not None else tokens[at],
        country=country,
        club=club,
        egd_pin=pin,
        place=place,
        line=line,
    )
    return Row(
        line, place or 0, player, grade, entries, entries_broken, place_written, unknown_before
    )


def _find_grade(tokens: list[str], first_name: int = 1) -> int | None:
    """Index of the grade: the first grade-like token after a name, followed by a country."""
    for at in range(first_name + 1, len(tokens) - 1):
        grade_like = GRADE_PATTERN.match(tokens[at]) or BARE_GRADE_PATTERN.match(tokens[at])
        if grade_like and COUNTRY_PATTERN.match(tokens[at + 1]):
            return at
    return None


def _read_grade(token: str, line: int, log: ProblemLog) -> Grade | None:
    text = token
    if BARE_GRADE_PATTERN.match(token):
        text = token + "k"
        log.warn(
            line,
            gettext_noop("The grade %(token)r has no k/d/p; it was read as %(text)s."),
            token=token,
            text=text,
        )
    try:
        return Grade.parse(text)
    except ValueError:
        log.error(
            line,
            gettext_noop("%(token)r is not a grade (30k to 1k, 1d to 9d, 1p to 9p)."),
            token=token,
        )
        return None


def _read_entries(tokens: list[str], line: int, log: ProblemLog) -> tuple[list[Entry], int]:
    """The round entries: the longest run of result-shaped tokens (the last, on a tie);
    and how many lone `?` stand right before them (rounds or a score column: the other
    lines' round count decides, `claim_unknown_rounds`).

    Score columns may stand before or after the entries, and some of them look
    like results (a tied SOS is written `358=`), so only the longest run counts.
    """
    matches = [ENTRY_PATTERN.match(token) for token in tokens]
    # A lone `?` (a round not played) only continues entries: before them it is a score
    # column's "unknown" (the Polish youth tables' category columns).
    for at, token in enumerate(tokens):
        if token == "?" and (at == 0 or matches[at - 1] is None):
            matches[at] = None
    for token, match in zip(tokens, matches, strict=True):
        if match is None and LOOKS_LIKE_ENTRY_PATTERN.search(token):
            log.error(
                line,
                gettext_noop("%(token)r is not a round result (%(ENTRY_HELP)s)."),
                token=token,
                ENTRY_HELP=ENTRY_HELP,
            )
    best = (0, 0)
    start = 0
    for end in range(len(tokens) + 1):
        if end < len(tokens) and matches[end] is not None:
            continue
        if end - start > 0 and end - start >= best[1] - best[0]:
            best = (start, end)
        start = end + 1
    if best[1] - best[0] > MAX_ROUNDS:
        log.error(
            line,
            gettext_noop(
                "This line has more than %(MAX_ROUNDS)s round results; is it an EGD table?"
            ),
            MAX_ROUNDS=MAX_ROUNDS,
        )
        return [], 0
    entries: list[Entry] = []
    for match in matches[best[0] : best[1]]:
        assert match is not None
        entry = _read_entry(match, line, log)
        if entry is not None:
            entries.append(entry)
    before = best[0] if best[1] > best[0] else len(tokens)
    unknown = 0
    while before - unknown > 0 and tokens[before - unknown - 1] == "?":
        unknown += 1
    return entries, unknown


def _read_entry(match: re.Match[str], line: int, log: ProblemLog) -> Entry | None:
    opponent, symbol, forfeit_mark, slash, colour, handicap_text = match.groups()
    token = match.group(0)
    forfeit = forfeit_mark is not None
    if symbol == "?" and forfeit:
        log.error(
            line,
            gettext_noop("%(token)r: a result not entered ('?') cannot be a default ('!')."),
            token=token,
        )
        return None
    if colour and not slash and not forfeit:
        log.error(
            line,
            gettext_noop("%(token)r: the colour must follow a '/' (%(ENTRY_HELP)s)."),
            token=token,
            ENTRY_HELP=ENTRY_HELP,
        )
        return None
    handicap = int(handicap_text) if handicap_text is not None else None
    if handicap is not None and handicap > MAX_HANDICAP:
        log.error(
            line,
            gettext_noop(
                "%(token)r: a handicap of %(handicap)s stones is more than %(MAX_HANDICAP)s."
            ),
            token=token,
            handicap=handicap,
            MAX_HANDICAP=MAX_HANDICAP,
        )
        return None
    if forfeit and symbol == "=" and opponent != "0":
        log.error(
            line,
            gettext_noop("%(token)r: a game cannot end in jigo by default ('!')."),
            token=token,
        )
        return None
    return Entry(
        int(opponent or 0), symbol, forfeit, colour.lower() if colour else None, handicap, token
    )


def _read_pin(text: str, line: int, log: ProblemLog) -> str | None:
    if not text:
        return None
    if not PIN_PATTERN.match(text):
        log.error(
            line,
            gettext_noop("The EGD number after '|' must have 8 digits, not %(text)r."),
            text=text,
        )
        return None
    return text


def _check_rows(rows: list[Row], log: ProblemLog) -> bool:
    """Places once each; False when opponents cannot be told apart."""
    seen: dict[int, int] = {}
    twice = False
    if number_by_position(rows, log):
        rows = []  # every place is its line's position: nothing is used twice
    for row in rows:
        if row.place in seen:
            log.error(
                row.line,
                gettext_noop(
                    "Place number %(place)s is used twice (also on line %(seen)s); opponents could not be told apart."
                ),
                place=row.place,
                seen=seen[row.place],
            )
            twice = True
        else:
            seen[row.place] = row.line
    return not twice


def _check_round_counts(rows: list[Row], log: ProblemLog) -> bool:
    """One result per round on every line; False when there are no results to pair."""
    if not rows:
        return False
    counts = Counter(len(row.entries) for row in rows)
    usual, _ = counts.most_common(1)[0]
    if usual == 0:
        log.error(rows[0].line, gettext_noop("No round results were found on the player lines."))
        return False
    for row in rows:
        if len(row.entries) != usual and not row.entries_broken:
            log.error(
                row.line,
                gettext_noop(
                    "This line has %(len)s round results, but the other lines have %(usual)s; every player needs one result per round (0- for a round not played)."
                ),
                len=len(row.entries),
                usual=usual,
            )
    return True


# ---------------------------------------------------------------- writing
