"""FIDE Tournament Report File, TRF16 and TRF26 (chess).

Layout: `shared/spec/formats.md` §2. Fixed columns, counted from 1; a line's
first three characters are its record code. The `001` player record is the
same in both versions; TRF26 adds `###` comment lines and new records.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from typing import Literal

from tournaments.formats.bounds import file_int, is_ascii_number
from tournaments.formats.model import (
    ByeKind,
    FileBye,
    FileGame,
    FilePlayer,
    GameKind,
    GameResult,
    ProblemLog,
    ResultsFile,
    TimeControl,
    TournamentDetails,
    gettext_noop,
)

Version = Literal["16", "26"]

# Player record `001`: (first column, last column), 1-based and inclusive.
START_RANK = (5, 8)
SEX = (10, 10)
TITLE = (11, 13)
NAME = (15, 47)
RATING = (49, 52)
FEDERATION = (54, 56)
FIDE_ID = (58, 68)
BIRTH_DATE = (70, 79)
POINTS = (81, 84)
RANK = (86, 89)
FIRST_ROUND_COLUMN = 92
ROUND_WIDTH = 10
MAX_ROUNDS = 200  # more is not a tournament; stops a garbage upload early
# Inside one round block, offsets from its first column.
OPPONENT_OFFSETS = (0, 3)
COLOUR_OFFSET = 5
RESULT_OFFSET = 7
# Columns that must stay blank between the fields of a `001` record.
SEPARATOR_COLUMNS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91)

HEADER_RECORDS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "042": "start date",
    "052": "end date",
    "062": "number of players",
    "072": "number of rated players",
    "092": "type of tournament",
    "102": "chief arbiter",
    "122": "time control",
    "132": "round dates",
    "142": "number of rounds",
}
# Records that only TRF26 has: their presence (or a `###` comment) marks the version.
TRF26_RECORDS = frozenset(
    [
        "142",
        "152",
        "162",
        "172",
        "182",
        "192",
        "202",
        "212",
        "222",
        "240",
        "250",
        "260",
        "299",
        "300",
        "310",
        "320",
        "330",
        "352",
        "362",
        "801",
        "802",
    ]
)

RATED_CODES = {"1": "win", "0": "loss", "=": "draw"}
FORFEIT_CODES = {"+": "win", "-": "loss"}
UNRATED_CODES = {"W": "win", "L": "loss", "D": "draw"}
BYE_CODES: dict[str, tuple[float, ByeKind]] = {
    "H": (0.5, "requested"),
    "F": (1.0, "requested"),
    "U": (1.0, "pairing"),
    "Z": (0.0, "absent"),
    "+": (1.0, "forfeit"),
    "-": (0.0, "forfeit"),
}
# What the other player's code must be, for each code of a game.
COUNTERPART = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+-", "W": "L", "L": "W", "D": "D"}
COLOURS = {"w": "w", "b": "b", "-": None, " ": None}
_DATE = re.compile(r"^(\d{4})(?:[/.-](\d{1,2})[/.-](\d{1,2}))?$")


@dataclass(frozen=True, slots=True)
class _Block:
    round: int
    column: int
    opponent: int  # 0: none
    colour: str | None
    code: str  # upper case; " " for blank


@dataclass(slots=True)
class _Row:
    line: int
    player: FilePlayer
    blocks: dict[int, _Block]


def _field(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1 : span[1]].strip()


# ---------------------------------------------------------------- reading


def parse(text: str, filename: str | None = None) -> ResultsFile:
    """Read a TRF16 or TRF26 file; raise `FormatError` listing every error found."""
    log = ProblemLog()
    header: dict[str, tuple[int, str]] = {}
    extra: list[str] = []
    rows: list[_Row] = []
    version: Version = "16"
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if log.full:
            break
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        code = line[:3]
        if code == "###":
            version = "26"
        elif code == "001":
            row = _read_player(line, number, log)
            if row is not None:
                rows.append(row)
        elif code in HEADER_RECORDS:
            header[code] = (number, line)
            version = "26" if code in TRF26_RECORDS else version
        else:
            version = "26" if code in TRF26_RECORDS else version
            extra.append(line)
            log.warn(
                number,
                gettext_noop("Record %(code)r is not used here; it was kept as it is."),
                code=code,
            )
    if not rows and not log.has_errors:
        log.error(None, gettext_noop("The file has no player records (lines starting with 001)."))
    details = _read_header(header, version, tuple(extra), log)
    _check_unique(rows, log)
    log.raise_if_errors()
    games, byes = _pair_blocks(rows, log)
    log.raise_if_errors()
    uncoloured = sum(1 for game in games if not game.colours_known and game.kind != "forfeit")
    if uncoloured:
        log.warn(
            None,
            gettext_noop(
                "%(uncoloured)s games give no colour (w or b); who had White is not known."
            ),
            uncoloured=uncoloured,
        )
    rounds = max((r for row in rows for r in row.blocks), default=0)
    details = replace(details, rounds=max(rounds, details.rounds))
    _check_counts(header, rows, log)
    declared = _declared_participants(_header_value(header, "062")[1])
    if declared is not None and declared > len(rows):
        details = replace(details, participants=declared)
    return ResultsFile(
        details=details,
        players=tuple(row.player for row in rows),
        games=tuple(games),
        byes=tuple(byes),
        warnings=log.warnings(),
    )


def _header_value(header: dict[str, tuple[int, str]], code: str) -> tuple[int | None, str]:
    line, text = header.get(code, (None, ""))
    return line, text[4:].strip()


def _read_header(
    header: dict[str, tuple[int, str]], version: Version, extra: tuple[str, ...], log: ProblemLog
) -> TournamentDetails:
    def value(code: str) -> str:
        return _header_value(header, code)[1]

    rounds_line, rounds_text = _header_value(header, "142")
    rounds = 0
    if rounds_text:
        if (read := file_int(rounds_text)) is not None:
            rounds = read
        else:
            log.warn(
                rounds_line,
                gettext_noop("The number of rounds %(rounds_text)r is not a number; ignored."),
                rounds_text=rounds_text,
            )
    time_text = value("122")
    return TournamentDetails(
        name=value("012"),
        city=value("022"),
        federation=value("032"),
        start_date=_read_header_date(*_header_value(header, "042"), log),
        end_date=_read_header_date(*_header_value(header, "052"), log),
        tournament_type=value("092"),
        chief_arbiter=value("102"),
        time_control=TimeControl(description=time_text) if time_text else None,
        round_dates=_read_round_dates(header.get("132", (0, ""))[1]),
        rounds=rounds,
        trf_version=version,
        extra_records=extra,
    )


def _read_header_date(line: int | None, text: str, log: ProblemLog) -> dt.date | None:
    if not text:
        return None
    match = _DATE.match(text)
    if match and match.group(2):
        try:
            return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        except ValueError:
            pass
    log.warn(
        line,
        gettext_noop("The date %(text)r is not like 2024/05/01; it was ignored."),
        5,
        text=text,
    )
    return None


def _read_round_dates(line: str) -> tuple[str, ...]:
    dates = []
    column = FIRST_ROUND_COLUMN
    while column <= len(line):
        dates.append(line[column - 1 : column + 7].strip())
        column += ROUND_WIDTH
    while dates and not dates[-1]:
        dates.pop()
    return tuple(dates)


def _read_player(line: str, number: int, log: ProblemLog) -> _Row | None:
    errors_before = log.error_count
    for column in SEPARATOR_COLUMNS:
        if len(line) >= column and line[column - 1] != " ":
            log.error(
                number,
                gettext_noop(
                    "Column %(col)s should be blank: the fields of this 001 record are not in their FIDE columns."
                ),
                column,
                col=column,
            )
            return None
    rank_text = _field(line, START_RANK)
    rank = file_int(rank_text, minimum=1, maximum=9999)
    if rank is None:
        log.error(
            number,
            gettext_noop("The starting rank %(rank_text)r is not a number from 1 to 9999."),
            5,
            rank_text=rank_text,
        )
        return None
    sex = _read_sex(_field(line, SEX), number, log)
    family, _, given = _field(line, NAME).partition(",")
    if not family.strip():
        log.warn(number, gettext_noop("This player has no name."), NAME[0])
    birth_date, birth_year = _read_birth(_field(line, BIRTH_DATE), number, log)
    player = FilePlayer(
        key=str(rank),
        family_name=family.strip(),
        given_name=given.strip(),
        fide_id=_read_digits(line, FIDE_ID, "FIDE ID", number, log),
        fide_rating=_read_int(line, RATING, "rating", number, log) or None,
        federation=_field(line, FEDERATION) or None,
        title=_field(line, TITLE) or None,
        birth_date=birth_date,
        birth_year=birth_year,
        sex=sex,
        place=_read_int(line, RANK, "rank", number, log),
        points=_read_points(line, number, log),
        line=number,
    )
    blocks = _read_blocks(line, number, log)
    if log.error_count > errors_before:
        return None
    return _Row(number, player, blocks)


def _read_sex(text: str, line: int, log: ProblemLog) -> Literal["m", "f"] | None:
    lowered = text.lower()
    if lowered == "m":
        return "m"
    if lowered in ("w", "f"):
        return "f"
    if text:
        log.warn(
            line, gettext_noop("The sex %(text)r is not m or w; it was ignored."), SEX[0], text=text
        )
    return None


def _read_int(
    line: str, span: tuple[int, int], what: str, number: int, log: ProblemLog
) -> int | None:
    text = _field(line, span)
    if not text:
        return None
    value = file_int(text)
    if value is None:
        log.error(
            number,
            gettext_noop("The %(what)s %(text)r is not a whole number."),
            span[0],
            what=what,
            text=text,
        )
    return value


def _read_digits(
    line: str, span: tuple[int, int], what: str, number: int, log: ProblemLog
) -> str | None:
    text = _field(line, span)
    if text and not is_ascii_number(text):
        log.error(
            number,
            gettext_noop("The %(what)s %(text)r should be digits only."),
            span[0],
            what=what,
            text=text,
        )
        return None
    return str(int(text)) if text and int(text) else None


def _read_points(line: str, number: int, log: ProblemLog) -> float | None:
    text = _field(line, POINTS)
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        log.error(
            number,
            gettext_noop("The points %(text)r are not a number like 5.5."),
            POINTS[0],
            text=text,
        )
        return None


def _read_birth(text: str, number: int, log: ProblemLog) -> tuple[dt.date | None, int | None]:
    if not text:
        return None, None
    match = _DATE.match(text)
    if match:
        year = int(match.group(1))
        if not match.group(2) or int(match.group(2)) == 0 or int(match.group(3)) == 0:
            return None, year
        try:
            return dt.date(year, int(match.group(2)), int(match.group(3))), year
        except ValueError:
            pass
    log.error(
        number,
        gettext_noop("The birth date %(text)r is not like 1990/07/01 (or the year alone)."),
        70,
        text=text,
    )
    return None, None


def _read_blocks(line: str, number: int, log: ProblemLog) -> dict[int, _Block]:
    blocks: dict[int, _Block] = {}
    if len(line) > FIRST_ROUND_COLUMN - 1 + ROUND_WIDTH * MAX_ROUNDS:
        log.error(
            number,
            gettext_noop("This record has more than %(MAX_ROUNDS)s rounds; is it a TRF?"),
            FIRST_ROUND_COLUMN,
            MAX_ROUNDS=MAX_ROUNDS,
        )
        return blocks
    round_number = 1
    column = FIRST_ROUND_COLUMN
    while column <= len(line):
        block = _read_block(
            line[column - 1 : column - 1 + ROUND_WIDTH], round_number, column, number, log
        )
        if block is not None:
            blocks[round_number] = block
        round_number += 1
        column += ROUND_WIDTH
    return blocks


def _read_block(
    text: str, round_number: int, column: int, number: int, log: ProblemLog
) -> _Block | None:
    text = text.ljust(ROUND_WIDTH)
    for offset in (4, 6, 8, 9):
        if text[offset] != " ":
            log.error(
                number,
                gettext_noop(
                    "Round %(round)s: column %(column___offset)s should be blank; the round results are not in their 10-column blocks."
                ),
                column + offset,
                round=round_number,
                column___offset=column + offset,
            )
            return None
    opponent_text = text[OPPONENT_OFFSETS[0] : OPPONENT_OFFSETS[1] + 1].strip()
    colour_text = text[COLOUR_OFFSET].lower()
    code = text[RESULT_OFFSET].upper()
    if opponent_text and not is_ascii_number(opponent_text):
        log.error(
            number,
            gettext_noop("Round %(round)s: the opponent %(opponent_text)r is not a starting rank."),
            column,
            round=round_number,
            opponent_text=opponent_text,
        )
        return None
    if colour_text not in COLOURS:
        log.error(
            number,
            gettext_noop("Round %(round)s: the colour %(text)r is not w, b or -."),
            column + 5,
            round=round_number,
            text=text[COLOUR_OFFSET],
        )
        return None
    known = set(RATED_CODES) | set(FORFEIT_CODES) | set(UNRATED_CODES) | set(BYE_CODES) | {" "}
    if code not in known:
        log.error(
            number,
            gettext_noop(
                "Round %(round)s: the result %(text)r is not a TRF result code (1 0 = + - W D L H F U Z)."
            ),
            column + 7,
            round=round_number,
            text=text[RESULT_OFFSET],
        )
        return None
    opponent = int(opponent_text) if opponent_text else 0
    if opponent == 0 and code == " ":
        return None  # blank: counts as a zero-point bye, and needs nothing stored
    colour = COLOURS[colour_text]
    if opponent == 0 and code not in BYE_CODES:
        log.error(
            number,
            gettext_noop("Round %(round)s: the result %(code)r needs an opponent."),
            column + 7,
            round=round_number,
            code=code,
        )
        return None
    if opponent and code in ("H", "F", "U", "Z"):
        log.error(
            number,
            gettext_noop("Round %(round)s: a bye (%(code)s) cannot have an opponent."),
            column,
            round=round_number,
            code=code,
        )
        return None
    if opponent and code == " ":
        log.error(
            number,
            gettext_noop("Round %(round)s: the game against player %(opponent)s has no result."),
            column + 7,
            round=round_number,
            opponent=opponent,
        )
        return None
    return _Block(round_number, column, opponent, colour, code)


def _check_unique(rows: list[_Row], log: ProblemLog) -> None:
    seen: dict[str, int] = {}
    for row in rows:
        key = row.player.key
        if key in seen:
            log.error(
                row.line,
                gettext_noop("Starting rank %(key)s is used twice (also on line %(seen)s)."),
                5,
                key=key,
                seen=seen[key],
            )
        else:
            seen[key] = row.line


def _declared_participants(text: str) -> int | None:
    """Record 062, the tournament's number of players (orr.md B.2's Np), when a number;
    kept only when more than the file lists (players the file leaves out still count)."""
    return int(text) if text.isdigit() and 0 < int(text) < 1_000_000 else None


def _check_counts(header: dict[str, tuple[int, str]], rows: list[_Row], log: ProblemLog) -> None:
    line, stated = _header_value(header, "062")
    if stated and stated != str(len(rows)):
        log.warn(
            line,
            gettext_noop("The header says %(stated)s players, but the file lists %(len)s."),
            stated=stated,
            len=len(rows),
        )


def _pair_blocks(rows: list[_Row], log: ProblemLog) -> tuple[list[FileGame], list[FileBye]]:
    by_rank = {int(row.player.key): row for row in rows}
    games: list[FileGame] = []
    byes: list[FileBye] = []
    for row in rows:
        for round_number, block in sorted(row.blocks.items()):
            if block.opponent == 0:
                points, kind = BYE_CODES[block.code]
                byes.append(FileBye(round_number, row.player.key, points, kind, line=row.line))
                continue
            game = _pair_one(row, block, by_rank, log)
            if game is not None:
                games.append(game)
    games.sort(key=lambda g: g.round)
    return games, byes


def _pair_one(
    row: _Row, block: _Block, by_rank: dict[int, _Row], log: ProblemLog
) -> FileGame | None:
    me = int(row.player.key)
    if block.opponent == me:
        log.error(
            row.line,
            gettext_noop("Round %(round)s: player %(me)s cannot play himself."),
            block.column,
            round=block.round,
            me=me,
        )
        return None
    other = by_rank.get(block.opponent)
    if other is None:
        log.error(
            row.line,
            gettext_noop("Round %(round)s: there is no player with starting rank %(opponent)s."),
            block.column,
            round=block.round,
            opponent=block.opponent,
        )
        return None
    answer = other.blocks.get(block.round)
    if answer is None or answer.opponent != me:
        template = (
            gettext_noop(
                "Round %(round)s: player %(key)s (line %(other_line)s) has player %(found)s"
                " in that round, not a game against %(me)s."
            )
            if answer and answer.opponent
            else gettext_noop(
                "Round %(round)s: player %(key)s (line %(other_line)s) has no opponent"
                " in that round, not a game against %(me)s."
            )
        )
        log.error(
            row.line,
            template,
            block.column,
            round=block.round,
            key=other.player.key,
            other_line=other.line,
            found=answer.opponent if answer else None,
            me=me,
        )
        return None
    if other.line < row.line:
        return None  # built when the earlier line was read
    if answer.code not in COUNTERPART[block.code]:
        log.error(
            row.line,
            gettext_noop(
                "Round %(round)s: this line and player %(key)s's (line %(other_line)s) disagree on the result (%(code)s and %(code2)s)."
            ),
            block.column + 7,
            round=block.round,
            key=other.player.key,
            other_line=other.line,
            code=block.code,
            code2=answer.code,
        )
        return None
    if block.colour and answer.colour and block.colour == answer.colour:
        log.error(
            row.line,
            gettext_noop(
                "Round %(round)s: this line and player %(key)s's (line %(other_line)s) give both players the same colour."
            ),
            block.column + 5,
            round=block.round,
            key=other.player.key,
            other_line=other.line,
        )
        return None
    return _build_game(row, other, block, answer)


def _build_game(row: _Row, other: _Row, block: _Block, answer: _Block) -> FileGame:
    colour = block.colour or {"w": "b", "b": "w"}.get(answer.colour or "")
    self_is_white = colour != "b"
    kind: GameKind
    if block.code in RATED_CODES:
        kind, outcome = "played", RATED_CODES[block.code]
    elif block.code in UNRATED_CODES:
        kind, outcome = "unrated", UNRATED_CODES[block.code]
    else:
        kind, outcome = "forfeit", FORFEIT_CODES[block.code]
        if block.code == "-" and answer.code == "-":
            outcome = "none"
    result: GameResult
    if outcome in ("draw", "none"):
        result = "draw" if outcome == "draw" else "none"
    else:
        result = "white" if (outcome == "win") == self_is_white else "black"
    white, black = (row, other) if self_is_white else (other, row)
    return FileGame(
        round=block.round,
        white=white.player.key,
        black=black.player.key,
        result=result,
        kind=kind,
        colours_known=colour is not None,
        line=row.line,
    )


# ---------------------------------------------------------------- writing


def write(results: ResultsFile, version: Version | None = None) -> str:
    """The results as a TRF (TRF16 unless `version` or the details say 26)."""
    version = version or results.details.trf_version or "16"
    ranks = _ranks(results)
    lines: list[str] = []
    if version == "26":
        lines.append("### Tournament Report File (TRF26)")
    lines += _header_lines(results, version)
    rounds = max(
        [
            results.details.rounds,
            *(g.round for g in results.games),
            *(b.round for b in results.byes),
        ]
    )
    seats = results.seats()
    points = results.all_points()
    for player in results.players:
        lines.append(_player_line(player, seats, points[player.key], ranks, rounds))
    lines += list(results.details.extra_records)
    return "\r\n".join(lines) + "\r\n"


def _ranks(results: ResultsFile) -> dict[str, int]:
    keys = [p.key for p in results.players]
    if all(is_ascii_number(k, max_digits=4) and 0 < int(k) < 10000 for k in keys) and len(
        {int(k) for k in keys}
    ) == len(keys):
        return {k: int(k) for k in keys}
    return {k: i for i, k in enumerate(keys, start=1)}


def _header_lines(results: ResultsFile, version: Version) -> list[str]:
    details = results.details
    time = details.time_control.description if details.time_control else None
    records = [
        ("012", details.name),
        ("022", details.city),
        ("032", details.federation),
        ("042", _trf_date(details.start_date) if details.start_date else ""),
        ("052", _trf_date(details.end_date) if details.end_date else ""),
        ("062", str(max(details.participants or 0, len(results.players)))),
        ("072", str(sum(1 for p in results.players if p.fide_rating))),
        ("092", details.tournament_type),
        ("102", details.chief_arbiter),
        ("122", time or ""),
    ]
    lines = [f"{code} {' '.join(value.split())}" for code, value in records if value]
    if details.round_dates:
        dates = "".join(f"{d:<{ROUND_WIDTH}}" for d in details.round_dates)
        lines.append(("132" + " " * (FIRST_ROUND_COLUMN - 4) + dates).rstrip())
    if version == "26" and details.rounds:
        lines.append(f"142 {details.rounds}")
    return lines


def _put(chars: list[str], span: tuple[int, int], value: str, right: bool = False) -> None:
    width = span[1] - span[0] + 1
    value = value[:width]
    text = value.rjust(width) if right else value.ljust(width)
    chars[span[0] - 1 : span[1]] = list(text)


def _player_line(
    player: FilePlayer,
    seats: dict[tuple[int, str], FileGame | FileBye],
    computed_points: float,
    ranks: dict[str, int],
    rounds: int,
) -> str:
    chars = [" "] * (FIRST_ROUND_COLUMN - 1 + ROUND_WIDTH * rounds)
    _put(chars, (1, 3), "001")
    _put(chars, START_RANK, str(ranks[player.key]), right=True)
    _put(chars, SEX, {"m": "m", "f": "w"}.get(player.sex or "", ""))
    _put(chars, TITLE, player.title or "", right=True)
    name = f"{player.family_name}, {player.given_name}" if player.given_name else player.family_name
    _put(chars, NAME, name or player.key)
    _put(chars, RATING, str(player.fide_rating or ""), right=True)
    _put(chars, FEDERATION, player.federation or "")
    _put(chars, FIDE_ID, player.fide_id or "", right=True)
    _put(chars, BIRTH_DATE, _birth_text(player))
    points = player.points if player.points is not None else computed_points
    _put(chars, POINTS, f"{points:.1f}", right=True)
    _put(chars, RANK, str(player.place or ""), right=True)
    for round_number in range(1, rounds + 1):
        column = FIRST_ROUND_COLUMN + ROUND_WIDTH * (round_number - 1)
        block = _block_text(player.key, seats.get((round_number, player.key)), ranks)
        chars[column - 1 : column - 1 + len(block)] = list(block)
    return "".join(chars).rstrip()


def _birth_text(player: FilePlayer) -> str:
    if player.birth_date:
        return _trf_date(player.birth_date)
    return f"{player.birth_year:04d}" if player.birth_year else ""


def _block_text(key: str, seat: FileGame | FileBye | None, ranks: dict[str, int]) -> str:
    if isinstance(seat, FileGame):
        opponent = seat.black if key == seat.white else seat.white
        colour = ("w" if key == seat.white else "b") if seat.colours_known else "-"
        return f"{ranks[opponent]:>4} {colour} {_game_code(key, seat)}"
    if isinstance(seat, FileBye):
        return f"0000 - {_bye_code(seat)}"
    return "    "


def _game_code(key: str, game: FileGame) -> str:
    points = game.points_of(key)
    if game.kind == "forfeit":
        return "+" if points == 1.0 else "-"
    codes = (
        {1.0: "1", 0.5: "=", 0.0: "0"} if game.kind == "played" else {1.0: "W", 0.5: "D", 0.0: "L"}
    )
    return codes[points]


def _bye_code(bye: FileBye) -> str:
    if bye.kind == "forfeit" and bye.points in (0.0, 1.0):
        return "+" if bye.points == 1.0 else "-"
    if bye.kind == "pairing" and bye.points == 1.0:
        return "U"
    return {1.0: "F", 0.5: "H"}.get(bye.points, "Z")


def _trf_date(day: dt.date) -> str:
    """YYYY/MM/DD, the year always four digits (strftime drops leading zeros on some systems)."""
    return day.isoformat().replace("-", "/")
