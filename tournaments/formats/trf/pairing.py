"""Pairing each round block with its opponent's answer into one game (or a bye)."""

from __future__ import annotations

from tournaments.formats.model import (
    FileBye,
    FileGame,
    GameKind,
    GameResult,
    ProblemLog,
    gettext_noop,
)
from tournaments.formats.not_entered import warn_not_entered
from tournaments.formats.trf.layout import (
    BYE_CODES,
    COUNTERPART,
    FORFEIT_CODES,
    NOT_ENTERED,
    RATED_CODES,
    UNRATED_CODES,
    Block,
    Row,
)


def pair_blocks(rows: list[Row], log: ProblemLog) -> tuple[list[FileGame], list[FileBye]]:
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
    warn_not_entered(games, byes, "blank or '*'", log)
    return games, byes


def _pair_one(row: Row, block: Block, by_rank: dict[int, Row], log: ProblemLog) -> FileGame | None:
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


def _build_game(row: Row, other: Row, block: Block, answer: Block) -> FileGame:
    colour = block.colour or {"w": "b", "b": "w"}.get(answer.colour or "")
    self_is_white = colour != "b"
    kind: GameKind
    if block.code == NOT_ENTERED:
        kind, outcome = "unplayed", "none"
    elif block.code in RATED_CODES:
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
