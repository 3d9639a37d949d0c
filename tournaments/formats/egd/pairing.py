"""Pairing the two entries of each game (12+/w on one line, its answer on the other) into
one game, with its colour and handicap (the table's rule when the entry gives none)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import replace

from ratings.systems.grades import Grade
from tournaments.formats.egd.layout import BYE_POINTS, EVEN_GAMES_RULE, MAX_HANDICAP, Entry, Row
from tournaments.formats.model import (
    ByeKind,
    FileBye,
    FileGame,
    GameKind,
    GameResult,
    ProblemLog,
    gettext_noop,
)
from tournaments.formats.not_entered import warn_not_entered


def pair_entries(
    rows: list[Row], rule: int, log: ProblemLog, unread: Collection[int] = ()
) -> tuple[list[FileGame], list[FileBye]]:
    """The games and byes the entries make, each checked against its opponent's entry.
    With errors elsewhere in the file (`unread`: the places of lines not read) the checks
    still run, so the file's errors are all told at once; what those errors make unknown
    (an unread opponent, a line whose entries were refused) is not judged."""
    by_place = {row.place: row for row in rows}
    games: list[FileGame] = []
    byes: list[FileBye] = []
    usual = Counter(len(row.entries) for row in rows).most_common(1)[0][0] if rows else 0
    # Lines whose entries are an error already (refused, or not one per round): unjudged.
    unread = {*unread, *(r.place for r in rows if r.entries_broken or len(r.entries) != usual)}
    for row in rows:
        if row.place in unread:
            continue
        for index, entry in enumerate(row.entries):
            round_number = index + 1
            if entry.opponent == 0:
                byes.append(
                    FileBye(
                        round_number,
                        row.player.key,
                        BYE_POINTS.get(entry.symbol, 0.0),
                        _bye_kind(entry),
                        line=row.line,
                    )
                )
                continue
            game = _pair_one(row, entry, round_number, by_place, rule, log, unread)
            if game is not None:
                games.append(game)
    games.sort(key=lambda g: g.round)
    warn_not_entered(games, byes, "'?'", log)
    return games, byes


def _bye_kind(entry: Entry) -> ByeKind:
    if entry.symbol == "?":
        return "unplayed"
    return "forfeit" if entry.forfeit else "free"


def _pair_one(
    row: Row,
    entry: Entry,
    round_number: int,
    by_place: dict[int, Row],
    rule: int,
    log: ProblemLog,
    unread: Collection[int] = (),
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
    if entry.opponent in unread:
        return None  # his line is an error already
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
    if row.grade is None or other.grade is None:
        return None  # a refused grade: the handicap cannot be judged, nothing is saved
    # An entry without a number means the handicap rule's value (formats.md §1), so a
    # number on one side only must agree with what the rule gives for the other.
    implied = rule_handicap(row.grade, other.grade, rule)
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


def _agreed_result(entry: Entry, answer: Entry) -> str | None:
    """Who won, seen from `entry`'s player: 'self', 'other', 'draw', 'none'; None if they disagree."""
    if entry.forfeit != answer.forfeit:
        return None
    pair = entry.symbol + answer.symbol
    if pair == "??":
        return "unplayed"
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
    row: Row,
    other: Row,
    entry: Entry,
    answer: Entry,
    outcome: str,
    round_number: int,
    rule: int,
) -> FileGame:
    explicit = entry.handicap if entry.handicap is not None else answer.handicap
    handicap = explicit if explicit is not None else rule_handicap(row.grade, other.grade, rule)
    if outcome == "unplayed":
        handicap = explicit or 0  # no game: only what the entries themselves say
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
    elif outcome in ("none", "unplayed"):
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
        kind=_game_kind(entry, outcome),
        colours_known=colours_known,
        line=row.line,
    )


def _game_kind(entry: Entry, outcome: str) -> GameKind:
    if outcome == "unplayed":
        return "unplayed"
    return "forfeit" if entry.forfeit else "played"


def _opposite(colour: str | None) -> str | None:
    return {"b": "w", "w": "b"}.get(colour or "")


# The round form and the referee's review check entered games against the rule with this.
def rule_handicap(first: Grade, second: Grade, rule: int) -> int:
    """Handicap rule `hN`: grade difference minus N, within 0–9; `h9` means even games."""
    if rule >= EVEN_GAMES_RULE:
        return 0
    return max(0, min(MAX_HANDICAP, abs(first.rank - second.rank) - rule))
