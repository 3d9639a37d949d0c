"""The European Go Database tournament table (`.h9`, `.h2`, …, `.txt`).

Layout and rules: `shared/spec/formats.md` §1 (restating the EGF GoR
document's "Tournament table format"). One player per line:

    place  Family Given  grade  country  club  [score columns]  entries…  [|PIN]

with one entry per round, `<opponent place><+|-|=>[!][/<b|w>[<handicap>]]`,
or `0+`, `0-`, `0=` for a round without an opponent.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import NamedTuple

from ratings.systems.grades import Grade
from tournaments.formats.bounds import file_int, is_ascii_number
from tournaments.formats.model import (
    FileBye,
    FileGame,
    FilePlayer,
    FormatError,
    GameResult,
    Problem,
    ProblemLog,
    ResultsFile,
    TimeControl,
    TournamentDetails,
    gettext_noop,
)

KNOWN_TAGS = ("TC", "CL", "EV", "PC", "DT", "HA", "KM", "TM", "CM")
RATED_CLASSES = ("A", "B", "C")
UNRATED_CLASSES = {"D": "an online tournament", "X": "an unrated tournament"}
EVEN_GAMES_RULE = 9  # `h9`: every game is even
MAX_HANDICAP = 9
MAX_ROUNDS = 200  # more is not a tournament table; stops a garbage upload early
BYE_POINTS = {"+": 1.0, "=": 0.5, "-": 0.0}
# Clubs written as a placeholder for "no club" in real tables.
NO_CLUB = re.compile(r"^x{2,4}$", re.IGNORECASE)

_TAG = re.compile(r"([A-Z]{2})\[([^\]]*)\]")
_TAG_LINE = re.compile(r"^\s*[A-Z]{2}\[")
_GRADE = re.compile(r"^\d{1,2}[kdp]$", re.IGNORECASE)
_BARE_GRADE = re.compile(r"^\d{1,2}$")
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")
_ENTRY = re.compile(
    r"^(?P<opp>\d+)(?P<sym>[-+=])(?P<forfeit>!)?"
    r"(?:(?P<slash>/)?(?P<colour>[bwBW])(?P<hcp>\d+)?)?$"
)
_LOOKS_LIKE_ENTRY = re.compile(r"^\d+[-+=]|/")
_RULE = re.compile(r"^\s*h?(\d)\s*$", re.IGNORECASE)
_RULE_IN_FILENAME = re.compile(r"\.h(\d)$", re.IGNORECASE)
_PIN = re.compile(r"^\d{8}$")
_ENTRY_HELP = "expected something like 12+/w, 7-/b2, 3=, 5+! or 0+"


class _Entry(NamedTuple):
    opponent: int
    symbol: str  # + - =
    forfeit: bool
    colour: str | None  # "b" / "w"
    handicap: int | None
    text: str


@dataclass(slots=True)
class _Row:
    line: int
    place: int
    player: FilePlayer
    grade: Grade
    entries: list[_Entry]
    entries_broken: bool = False  # an entry was refused: its round count proves nothing


# ---------------------------------------------------------------- reading


def parse(text: str, filename: str | None = None) -> ResultsFile:
    """Read an EGD table; raise `FormatError` listing every error found."""
    log = ProblemLog()
    tags: dict[str, tuple[int, str]] = {}
    comments: list[str] = []
    rows: list[_Row] = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if log.full:
            break
        content, _, comment = raw.partition(";")
        if not content.strip():
            _read_tags(comment, number, tags, comments, log)
            continue
        row = _read_player_line(content, number, log)
        if row is not None:
            rows.append(row)
    if not rows and not log.has_errors:
        log.error(
            None,
            gettext_noop("The file has no player lines: is it really an EGD tournament table?"),
        )
    details = _read_details(tags, comments, filename, log)
    _check_rows(rows, log)
    log.raise_if_errors()
    rule = details.handicap_rule if details.handicap_rule is not None else EVEN_GAMES_RULE
    games, byes = _pair_entries(rows, rule, log)
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
    if not _TAG_LINE.match(comment):
        return
    for code, raw in _TAG.findall(comment):
        value = _clean(raw)  # as the writer writes it: one space, no ';' or ']' inside
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
    if _COUNTRY.match(value):
        return value, ""
    return "", value


def _read_dates(
    line: int | None, value: str, log: ProblemLog
) -> tuple[dt.date | None, dt.date | None]:
    if not value:
        return None, None
    parts = [part.strip() for part in value.split(",")]
    dates: list[dt.date | None] = []
    for part in parts[:2]:
        if not part:
            dates.append(None)
            continue
        try:
            dates.append(dt.date.fromisoformat(part))
        except ValueError:
            log.warn(
                line,
                gettext_noop(
                    "The date %(part)r in DT[…] is not a date like 2024-05-01; it was ignored."
                ),
                part=part,
            )
            dates.append(None)
    start = dates[0]
    end = dates[1] if len(dates) > 1 else start
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
        match = _RULE.match(value)
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
        match = _RULE_IN_FILENAME.search(PurePath(filename).name)
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
    minutes = _read_number(line, value, "adjusted time TM[…]", log)
    return TimeControl(adjusted_minutes=minutes) if minutes is not None else None


def _read_player_line(content: str, line: int, log: ProblemLog) -> _Row | None:
    body, bar, pin_text = content.partition("|")
    tokens = body.split()
    if not tokens:
        log.error(line, gettext_noop("This line has an EGD number but no player."))
        return None
    place = file_int(tokens[0], minimum=1)
    if place is None:
        log.error(
            line,
            gettext_noop(
                "A player line must start with the player's place number, not %(tokens)r."
            ),
            tokens=tokens[0],
        )
        return None
    at = _find_grade(tokens)
    if at is None:
        log.error(
            line,
            gettext_noop(
                "Could not find the grade and country after the name (expected something like 'Smith John 5k GB Lond')."
            ),
        )
        return None
    grade = _read_grade(tokens[at], line, log)
    if grade is None:
        return None
    names = [token.replace("_", " ") for token in tokens[1:at]]
    country = tokens[at + 1].upper()
    rest = tokens[at + 2 :]
    club: str | None = None
    if rest and not _ENTRY.match(rest[0]):
        club = None if NO_CLUB.match(rest[0]) else rest[0]
        rest = rest[1:]
    errors_before = log.error_count
    entries = _read_entries(rest, line, log)
    entries_broken = log.error_count > errors_before
    pin = _read_pin(pin_text.strip(), line, log) if bar else None
    player = FilePlayer(
        key=str(place),
        family_name=names[0],
        given_name=" ".join(names[1:]),
        grade=str(grade),
        country=country,
        club=club,
        egd_pin=pin,
        place=place,
        line=line,
    )
    return _Row(line, place, player, grade, entries, entries_broken)


def _find_grade(tokens: list[str]) -> int | None:
    """Index of the grade: the first grade-like token after a name, followed by a country."""
    for at in range(2, len(tokens) - 1):
        grade_like = _GRADE.match(tokens[at]) or _BARE_GRADE.match(tokens[at])
        if grade_like and _COUNTRY.match(tokens[at + 1]):
            return at
    return None


def _read_grade(token: str, line: int, log: ProblemLog) -> Grade | None:
    text = token
    if _BARE_GRADE.match(token):
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


def _read_entries(tokens: list[str], line: int, log: ProblemLog) -> list[_Entry]:
    """The round entries: the longest run of result-shaped tokens (the last, on a tie).

    Score columns may stand before or after the entries, and some of them look
    like results (a tied SOS is written `358=`), so only the longest run counts.
    """
    matches = [_ENTRY.match(token) for token in tokens]
    for token, match in zip(tokens, matches, strict=True):
        if match is None and _LOOKS_LIKE_ENTRY.search(token):
            log.error(
                line,
                gettext_noop("%(token)r is not a round result (%(ENTRY_HELP)s)."),
                token=token,
                ENTRY_HELP=_ENTRY_HELP,
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
        return []
    entries: list[_Entry] = []
    for match in matches[best[0] : best[1]]:
        assert match is not None
        entry = _read_entry(match, line, log)
        if entry is not None:
            entries.append(entry)
    return entries


def _read_entry(match: re.Match[str], line: int, log: ProblemLog) -> _Entry | None:
    opponent, symbol, forfeit_mark, slash, colour, handicap_text = match.groups()
    token = match.group(0)
    forfeit = forfeit_mark is not None
    if colour and not slash and not forfeit:
        log.error(
            line,
            gettext_noop("%(token)r: the colour must follow a '/' (%(ENTRY_HELP)s)."),
            token=token,
            ENTRY_HELP=_ENTRY_HELP,
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
    return _Entry(
        int(opponent), symbol, forfeit, colour.lower() if colour else None, handicap, token
    )


def _read_pin(text: str, line: int, log: ProblemLog) -> str | None:
    if not text:
        return None
    if not _PIN.match(text):
        log.error(
            line,
            gettext_noop("The EGD number after '|' must have 8 digits, not %(text)r."),
            text=text,
        )
        return None
    return text


def _check_rows(rows: list[_Row], log: ProblemLog) -> None:
    seen: dict[int, int] = {}
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
        else:
            seen[row.place] = row.line
    if not rows:
        return
    counts = Counter(len(row.entries) for row in rows)
    usual, _ = counts.most_common(1)[0]
    if usual == 0:
        log.error(rows[0].line, gettext_noop("No round results were found on the player lines."))
        return
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


def _pair_entries(
    rows: list[_Row], rule: int, log: ProblemLog
) -> tuple[list[FileGame], list[FileBye]]:
    by_place = {row.place: row for row in rows}
    games: list[FileGame] = []
    byes: list[FileBye] = []
    for row in rows:
        for index, entry in enumerate(row.entries):
            round_number = index + 1
            if entry.opponent == 0:
                byes.append(
                    FileBye(
                        round_number,
                        row.player.key,
                        BYE_POINTS[entry.symbol],
                        "forfeit" if entry.forfeit else "free",
                        line=row.line,
                    )
                )
                continue
            game = _pair_one(row, entry, round_number, by_place, rule, log)
            if game is not None:
                games.append(game)
    games.sort(key=lambda g: g.round)
    return games, byes


def _pair_one(
    row: _Row,
    entry: _Entry,
    round_number: int,
    by_place: dict[int, _Row],
    rule: int,
    log: ProblemLog,
) -> FileGame | None:
    """Check one entry against its opponent's; build the game once, from the earlier line."""
    if entry.opponent == row.place:
        log.error(
            row.line,
            gettext_noop("Round %(round)s, '%(entry)s': player %(place)s cannot play himself."),
            round=round_number,
            entry=entry.text,
            place=row.place,
        )
        return None
    other = by_place.get(entry.opponent)
    if other is None:
        log.error(
            row.line,
            gettext_noop(
                "Round %(round)s, '%(entry)s': there is no player with place number %(opponent)s."
            ),
            round=round_number,
            entry=entry.text,
            opponent=entry.opponent,
        )
        return None
    answer = other.entries[round_number - 1]
    if answer.opponent != row.place:
        log.error(
            row.line,
            gettext_noop(
                "Round %(round)s, '%(entry)s': player %(place)s (line %(other_line)s) has '%(text)s' in that round, not a game against %(place2)s."
            ),
            round=round_number,
            entry=entry.text,
            place=other.place,
            other_line=other.line,
            text=answer.text,
            place2=row.place,
        )
        return None
    if other.line < row.line:
        return None  # built when the earlier line was read
    result = _agreed_result(entry, answer)
    if result is None:
        log.error(
            row.line,
            gettext_noop(
                "Round %(round)s, '%(entry)s' and '%(answer)s' of player %(place)s (line %(other_line)s) do not agree on who won."
            ),
            round=round_number,
            entry=entry.text,
            answer=answer.text,
            place=other.place,
            other_line=other.line,
        )
        return None
    # An entry without a number means the handicap rule's value (formats.md §1), so a
    # number on one side only must agree with what the rule gives for the other.
    implied = _rule_handicap(row.grade, other.grade, rule)
    mine = entry.handicap if entry.handicap is not None else implied
    theirs = answer.handicap if answer.handicap is not None else implied
    if mine != theirs:
        log.error(
            row.line,
            gettext_noop(
                "Round %(round)s, '%(entry)s' and '%(answer)s' of player %(place)s (line %(other_line)s) give different handicaps."
            ),
            round=round_number,
            entry=entry.text,
            answer=answer.text,
            place=other.place,
            other_line=other.line,
        )
        return None
    game = _build_game(row, other, entry, answer, result, round_number, rule)
    if entry.colour and answer.colour and entry.colour == answer.colour:
        if game.handicap > 0:
            log.error(
                row.line,
                gettext_noop(
                    "Round %(round)s, '%(entry)s' and '%(answer)s' of player %(place)s (line %(other_line)s) give both players the same colour in a handicap game."
                ),
                round=round_number,
                entry=entry.text,
                answer=answer.text,
                place=other.place,
                other_line=other.line,
            )
            return None
        # Real tables carry this slip; in an even game the colour does not change the rating.
        log.warn(
            row.line,
            gettext_noop(
                "Round %(round)s, '%(entry)s' and '%(answer)s' of player %(place)s (line %(other_line)s) give both players the same colour; the colours are ignored."
            ),
            round=round_number,
            entry=entry.text,
            answer=answer.text,
            place=other.place,
            other_line=other.line,
        )
        game = replace(
            game,
            colours_known=False,
            white=row.player.key,
            black=other.player.key,
            result=_result_for_first(game, row.player.key),
        )
    return game


def _result_for_first(game: FileGame, first: str) -> GameResult:
    """The game's result once `first` is listed as White."""
    if game.result in ("draw", "none") or game.white == first:
        return game.result
    return "white" if game.result == "black" else "black"


def _agreed_result(entry: _Entry, answer: _Entry) -> str | None:
    """Who won, seen from `entry`'s player: 'self', 'other', 'draw', 'none'; None if they disagree."""
    if entry.forfeit != answer.forfeit:
        return None
    pair = entry.symbol + answer.symbol
    if pair == "+-":
        return "self"
    if pair == "-+":
        return "other"
    if pair == "==" and not entry.forfeit:
        return "draw"
    if pair == "--" and entry.forfeit:
        return "none"
    return None


def _build_game(
    row: _Row,
    other: _Row,
    entry: _Entry,
    answer: _Entry,
    outcome: str,
    round_number: int,
    rule: int,
) -> FileGame:
    explicit = entry.handicap if entry.handicap is not None else answer.handicap
    handicap = explicit if explicit is not None else _rule_handicap(row.grade, other.grade, rule)
    colour = entry.colour or _opposite(answer.colour)
    colours_known = colour is not None
    if colour is None and handicap > 0:
        colour = "b" if row.grade < other.grade else "w"  # the weaker takes Black
        colours_known = True
    self_is_white = colour != "b"  # unknown colours: the earlier line is listed as White
    white, black = (row, other) if self_is_white else (other, row)
    result: GameResult
    if outcome == "draw":
        result = "draw"
    elif outcome == "none":
        result = "none"
    else:
        self_won = outcome == "self"
        result = "white" if self_won == self_is_white else "black"
    return FileGame(
        round=round_number,
        white=white.player.key,
        black=black.player.key,
        result=result,
        handicap=handicap,
        kind="forfeit" if entry.forfeit else "played",
        colours_known=colours_known,
        line=row.line,
    )


def _opposite(colour: str | None) -> str | None:
    return {"b": "w", "w": "b"}.get(colour or "")


def _rule_handicap(first: Grade, second: Grade, rule: int) -> int:
    """Handicap rule `hN`: grade difference minus N, within 0–9; `h9` means even games."""
    if rule >= EVEN_GAMES_RULE:
        return 0
    return max(0, min(MAX_HANDICAP, abs(first.rank - second.rank) - rule))


# ---------------------------------------------------------------- writing


def write(results: ResultsFile) -> str:
    """The table as EGD text; raises `FormatError` if a player lacks what EGD requires."""
    places = _places(results)
    problems = [
        Problem.of(
            None,
            None,
            gettext_noop("Player %(name)r has no %(what)s; the EGD format needs one."),
            name=p.name,
            what=what,
        )
        for p in results.players
        for what, value in (("grade", p.grade), ("two-letter country", p.country))
        if not value or (what != "grade" and not _COUNTRY.match(value))
    ]
    if problems:
        raise FormatError(problems)
    lines = _header_lines(results.details)
    lines.append(";")
    rounds = max(
        [
            results.details.rounds,
            *(g.round for g in results.games),
            *(b.round for b in results.byes),
        ]
    )
    name_width = max(len(_name_token(p)) for p in results.players) if results.players else 0
    place_width = len(str(max(places.values(), default=1)))
    seats = results.seats()
    points_of = results.all_points()
    for player in results.players:
        entries = [
            _entry_text(player.key, seats.get((r, player.key)), places)
            for r in range(1, rounds + 1)
        ]
        club = (player.club or "xxxx").replace(" ", "_")
        points = f"{points_of[player.key]:g}"
        text = (
            f"{places[player.key]:>{place_width}} {_name_token(player):<{name_width}} "
            f"{player.grade:>3} {player.country} {club:<4} {points:>4}  "
            + " ".join(f"{e:<7}" for e in entries)
        ).rstrip()
        if player.egd_pin:
            text += f" |{player.egd_pin}"
        lines.append(text)
    return "\n".join(lines) + "\n"


def _places(results: ResultsFile) -> dict[str, int]:
    """Keep the file's keys where they are distinct place numbers, else number players in order."""
    keys = [p.key for p in results.players]
    if all(is_ascii_number(k, max_digits=9) and int(k) > 0 for k in keys) and len(
        {int(k) for k in keys}
    ) == len(keys):
        return {k: int(k) for k in keys}
    return {k: i for i, k in enumerate(keys, start=1)}


def _clean(value: str) -> str:
    return " ".join(value.replace("]", ")").replace(";", ",").split())


def _number(value: float) -> str:
    return f"{value:g}"


def _header_lines(details: TournamentDetails) -> list[str]:
    tags: list[tuple[str, str]] = []
    if details.code:
        tags.append(("TC", details.code))
    if details.tournament_class:
        tags.append(("CL", details.tournament_class))
    if details.name:
        tags.append(("EV", details.name))
    if details.country or details.city:
        tags.append(
            ("PC", f"{details.country}, {details.city}" if details.city else details.country)
        )
    if details.start_date or details.end_date:
        dates = [d.isoformat() if d else "" for d in (details.start_date, details.end_date)]
        tags.append(("DT", ",".join(dates)))
    if details.handicap_rule is not None:
        tags.append(("HA", f"h{details.handicap_rule}"))
    if details.komi is not None:
        tags.append(("KM", _number(details.komi)))
    adjusted = details.time_control.adjusted_minutes if details.time_control else None
    if adjusted is not None:
        tags.append(("TM", _number(adjusted)))
    for comment in details.comment.split("\n") if details.comment else []:
        tags.append(("CM", comment))
    return [f"; {code}[{_clean(value)}]" for code, value in tags]


def _name_token(player: FilePlayer) -> str:
    family = player.family_name or player.key
    parts = [family.replace(" ", "_")]
    if player.given_name:
        parts.append(player.given_name.replace(" ", "_"))
    return " ".join(parts)


def _entry_text(key: str, seat: FileGame | FileBye | None, places: dict[str, int]) -> str:
    if isinstance(seat, FileGame):
        return _game_entry(key, seat, places)
    if isinstance(seat, FileBye):
        symbol = {1.0: "+", 0.5: "="}.get(seat.points, "-")
        return "0" + symbol + ("!" if seat.kind == "forfeit" else "")
    return "0-"


def _game_entry(key: str, game: FileGame, places: dict[str, int]) -> str:
    opponent = game.black if key == game.white else game.white
    if game.kind == "unrated" and game.result == "draw":
        return "0="  # EGD cannot say "drawn, not rated": half a point each, no game
    points = game.points_of(key)
    symbol = "=" if game.result == "draw" else ("+" if points == 1.0 else "-")
    forfeit = "!" if game.kind != "played" else ""
    colour = ""
    if game.colours_known:
        colour = f"/{'w' if key == game.white else 'b'}{game.handicap}"
    return f"{places[opponent]}{symbol}{forfeit}{colour}"


# The round form and the referee's review check entered games against the rule with this.
rule_handicap = _rule_handicap
