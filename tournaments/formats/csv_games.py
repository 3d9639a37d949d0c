"""CSV games: `round,white,black,result[,handicap]`, one played game a row (formats.md §3).

For quick entry of club games (any game, e.g. Reversi) where no pairing
program is used. Players are named by member id or exact name; the text is
kept as the player's `key` for the importer to match.
"""

from __future__ import annotations

import csv
import io
from collections import Counter

from tournaments.formats.bounds import MAX_ROUNDS, file_int
from tournaments.formats.model import (
    FileGame,
    FilePlayer,
    GameResult,
    ProblemLog,
    ResultsFile,
    TournamentDetails,
    gettext_noop,
)

REQUIRED_COLUMNS = ("round", "white", "black", "result")
OPTIONAL_COLUMNS = ("handicap",)
RESULTS: tuple[GameResult, ...] = ("white", "black", "draw")
MAX_HANDICAP = 9


def parse(text: str, filename: str | None = None) -> ResultsFile:
    """Read CSV games; raise `FormatError` listing every error found."""
    log = ProblemLog()
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    columns: dict[str, int] | None = None
    games: list[FileGame] = []
    players: dict[str, FilePlayer] = {}
    seats: dict[tuple[int, str], int] = {}
    try:
        for row in reader:
            if log.full:
                break
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if columns is None:
                columns = _read_header(row, line, log)
                if columns is None:
                    break
                continue
            game = _read_row(row, line, columns, log)
            if game is None:
                continue
            for key in (game.white, game.black):
                players.setdefault(key, FilePlayer(key=key, line=line))
                first = seats.setdefault((game.round, key), line)
                if first != line:
                    log.error(
                        line,
                        gettext_noop("%(key)r already plays in round %(round)s (line %(first)s)."),
                        key=key,
                        round=game.round,
                        first=first,
                    )
            games.append(game)
    except csv.Error as error:
        log.error(reader.line_num, gettext_noop("The CSV cannot be read: %(error)s."), error=error)
    if columns is not None and not games and not log.has_errors:
        log.error(None, gettext_noop("The file has a header but no games."))
    if columns is None and not log.has_errors:
        log.error(
            None,
            gettext_noop(
                "The file is empty: expected the header round,white,black,result[,handicap]."
            ),
        )
    log.raise_if_errors()
    rounds = max(g.round for g in games)
    return ResultsFile(
        details=TournamentDetails(rounds=rounds),
        players=tuple(players.values()),
        games=tuple(games),  # file order: the players are listed in order of first appearance
        warnings=log.warnings(),
    )


def _read_header(row: list[str], line: int, log: ProblemLog) -> dict[str, int] | None:
    names = [cell.strip().lower() for cell in row]
    missing = [name for name in REQUIRED_COLUMNS if name not in names]
    if missing:
        log.error(
            line,
            gettext_noop(
                "The first line must name the columns round,white,black,result[,handicap]; missing: %(join)s."
            ),
            join=", ".join(missing),
        )
        return None
    for name in names:
        if name not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS:
            log.warn(
                line, gettext_noop("The column %(name)r is not used and was ignored."), name=name
            )
    repeated = [name for name, count in Counter(names).items() if count > 1]
    if repeated:
        log.error(
            line, gettext_noop("The column %(repeated)r appears twice."), repeated=repeated[0]
        )
        return None
    return {name: index for index, name in enumerate(names)}


def _read_row(
    row: list[str], line: int, columns: dict[str, int], log: ProblemLog
) -> FileGame | None:
    def cell(name: str) -> str:
        index = columns.get(name)
        return row[index].strip() if index is not None and index < len(row) else ""

    errors_before = log.error_count
    round_text, white, black = cell("round"), cell("white"), cell("black")
    result_text, handicap_text = cell("result").lower(), cell("handicap")
    round_number = file_int(round_text, minimum=1, maximum=MAX_ROUNDS)
    if round_number is None:
        log.error(
            line,
            gettext_noop("The round %(round_text)r is not a whole number from 1 to %(max)s."),
            round_text=round_text,
            max=MAX_ROUNDS,
        )
    if not white or not black:
        log.error(line, gettext_noop("Both players, white and black, must be given."))
    elif white == black:
        log.error(line, gettext_noop("%(white)r cannot play himself."), white=white)
    if result_text not in RESULTS:
        log.error(
            line,
            gettext_noop("The result %(cell)r must be white, black or draw."),
            cell=cell("result"),
        )
    handicap = 0
    if handicap_text:
        read = file_int(handicap_text, minimum=0, maximum=MAX_HANDICAP)
        if read is None:
            log.error(
                line,
                gettext_noop("The handicap %(handicap_text)r must be a whole number from 0 to 9."),
                handicap_text=handicap_text,
            )
        else:
            handicap = read
    if log.error_count > errors_before or round_number is None:
        return None
    result: GameResult = (
        "white" if result_text == "white" else "black" if result_text == "black" else "draw"
    )
    return FileGame(round_number, white, black, result, handicap, line=line)


def write(results: ResultsFile) -> str:
    """The played games as CSV; forfeits and byes have no place in this format."""
    labels = _labels(results)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(REQUIRED_COLUMNS + OPTIONAL_COLUMNS)
    for game in results.games:
        if game.is_rated:
            writer.writerow(
                [game.round, labels[game.white], labels[game.black], game.result, game.handicap]
            )
    return out.getvalue()


def _labels(results: ResultsFile) -> dict[str, str]:
    """Each player's name, or the key where names are missing or shared."""
    names = Counter(p.name for p in results.players)
    return {p.key: p.name if names[p.name] == 1 else p.key for p in results.players}
