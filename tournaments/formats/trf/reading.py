"""Reading a TRF16 or TRF26 file: its header records, then each `001` player record and its
round blocks; `pairing` makes games of the blocks."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Literal

from tournaments.formats.bounds import file_int, is_ascii_number
from tournaments.formats.model import (
    FilePlayer,
    ProblemLog,
    ResultsFile,
    TournamentDetails,
    gettext_noop,
)
from tournaments.formats.time_text import read_time_text
from tournaments.formats.trf.header_dates import read_header_dates
from tournaments.formats.trf.layout import (
    BIRTH_DATE,
    BYE_CODES,
    COLOUR_OFFSET,
    COLOURS,
    DATE_PATTERN,
    FEDERATION,
    FIDE_ID,
    FIRST_ROUND_COLUMN,
    FORFEIT_CODES,
    HEADER_RECORDS,
    MAX_ROUNDS,
    NAME,
    NOT_ENTERED,
    OPPONENT_OFFSETS,
    POINTS,
    RANK,
    RATED_CODES,
    RATING,
    RESULT_OFFSET,
    ROUND_WIDTH,
    SEPARATOR_COLUMNS,
    SEX,
    START_RANK,
    TITLE,
    TRF26_RECORDS,
    UNRATED_CODES,
    Block,
    Row,
    Version,
    column_text,
)
from tournaments.formats.trf.pairing import pair_blocks
from tournaments.formats.trf.placeholders import blank_header_placeholders, is_id_placeholder


def parse(text: str, filename: str | None = None) -> ResultsFile:
    """Read a TRF16 or TRF26 file; raise `FormatError` listing every error found."""
    log = ProblemLog()
    header: dict[str, tuple[int, str]] = {}
    extra: list[str] = []
    rows: list[Row] = []
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
    blank_header_placeholders(header, log)
    details = _read_header(header, version, tuple(extra), log)
    _check_unique(rows, log)
    log.raise_if_errors()
    games, byes = pair_blocks(rows, log)
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
    if declared is not None and declared != len(rows):  # the same count says nothing more
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
    start, end = read_header_dates(header, log)
    return TournamentDetails(
        name=value("012"),
        city=value("022"),
        federation=value("032"),
        start_date=start,
        end_date=end,
        tournament_type=value("092"),
        chief_arbiter=value("102"),
        time_control=read_time_text(value("122")),
        round_dates=_read_round_dates(header.get("132", (0, ""))[1]),
        rounds=rounds,
        trf_version=version,
        extra_records=extra,
    )


def _read_round_dates(line: str) -> tuple[str, ...]:
    dates = []
    column = FIRST_ROUND_COLUMN
    while column <= len(line):
        dates.append(line[column - 1 : column + 7].strip())
        column += ROUND_WIDTH
    while dates and not dates[-1]:
        dates.pop()
    return tuple(dates)


def _read_player(line: str, number: int, log: ProblemLog) -> Row | None:
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
    rank_text = column_text(line, START_RANK)
    rank = file_int(rank_text, minimum=1, maximum=9999)
    if rank is None:
        log.error(
            number,
            gettext_noop("The starting rank %(rank_text)r is not a number from 1 to 9999."),
            5,
            rank_text=rank_text,
        )
        return None
    sex = _read_sex(column_text(line, SEX), number, log)
    family, _, given = column_text(line, NAME).partition(",")
    if not family.strip():
        log.warn(number, gettext_noop("This player has no name."), NAME[0])
    birth_date, birth_year = _read_birth(column_text(line, BIRTH_DATE), number, log)
    player = FilePlayer(
        key=str(rank),
        family_name=family.strip(),
        given_name=given.strip(),
        fide_id=_read_digits(line, FIDE_ID, "FIDE ID", number, log),
        fide_rating=_read_int(line, RATING, "rating", number, log) or None,
        federation=column_text(line, FEDERATION) or None,
        title=column_text(line, TITLE) or None,
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
    return Row(number, player, blocks)


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
    text = column_text(line, span)
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
    text = column_text(line, span)
    if is_id_placeholder(text, number, span[0], log):
        return None
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
    text = column_text(line, POINTS)
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
    match = DATE_PATTERN.match(text)
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


def _read_blocks(line: str, number: int, log: ProblemLog) -> dict[int, Block]:
    blocks: dict[int, Block] = {}
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
) -> Block | None:
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
                "Round %(round)s: the result %(text)r is not a TRF result code (1 0 = + - W D L H F U Z *)."
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
        code = NOT_ENTERED  # a round being played: the pairing stands, its result is not in
    return Block(round_number, column, opponent, colour, code)


def _check_unique(rows: list[Row], log: ProblemLog) -> None:
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
    """Record 062, the tournament's number of players (orr.md B.2's Np), when a number.
    More than the file lists: players it leaves out still count; fewer: a contradiction
    the preview shows (orr.md Part D)."""
    return int(text) if text.isdigit() and 0 < int(text) < 1_000_000 else None


def _check_counts(header: dict[str, tuple[int, str]], rows: list[Row], log: ProblemLog) -> None:
    line, stated = _header_value(header, "062")
    declared = _declared_participants(stated)
    # A usable count below the listed players is the preview's contradiction, every format's.
    below = declared is not None and declared < len(rows)
    if stated and stated != str(len(rows)) and not below:
        log.warn(
            line,
            gettext_noop("The header says %(stated)s players, but the file lists %(len)s."),
            stated=stated,
            len=len(rows),
        )
