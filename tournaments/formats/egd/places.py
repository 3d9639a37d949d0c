"""OpenGotha's places and unknown rounds. Places: a tied player's place left blank, or written as the same number as
the line above. Opponents' entries then name line positions (the n-th player line is
player n), since a shared place cannot tell the tied players apart."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from tournaments.formats.egd.layout import Entry, Row
from tournaments.formats.model import FilePlayer, ProblemLog, gettext_noop

MAX_LINES_NAMED = 10


def number_by_position(rows: list[Row], log: ProblemLog) -> bool:
    """Number the rows by position when their places are blank or shared (in standings
    order); say so. False, and nothing changed, when every place is written and distinct,
    or when repeated places are not in standings order (an error for the caller)."""
    blank = [row.line for row in rows if not row.place_written]
    written = [row.place for row in rows if row.place_written]
    shared = len(set(written)) < len(written)
    if not blank and not (shared and written == sorted(written)):
        return False
    standing = 0
    for position, row in enumerate(rows, start=1):
        # A blank place is the tied place of the line above.
        standing = row.place if row.place_written else standing
        row.place = position
        row.player = replace(row.player, key=str(position), place=standing or None)
    lines = blank or [row.line for row in rows]
    named = ", ".join(str(line) for line in lines[:MAX_LINES_NAMED])
    log.warn(
        lines[0],
        gettext_noop(
            "Places are blank or shared (lines %(lines)s%(more)s): the players were numbered"
            " by their line's position, and the rounds' opponent numbers read as positions."
        ),
        lines=named,
        more=", …" if len(lines) > MAX_LINES_NAMED else "",
    )
    return True


def claim_unknown_rounds(rows: list[Row]) -> None:
    """A line short of the others' round count whose entries follow lone `?` takes them as
    rounds not played (OpenGotha, a knockout's first rounds); elsewhere they stay a score
    column's "unknown" (the Polish youth tables' category columns)."""
    # The round count of the lines no `?` stands before (the larger on a tie); when every
    # line has some, the count they make as rounds.
    clear = [row for row in rows if not row.unknown_before and not row.entries_broken]
    counts = Counter(len(row.entries) for row in clear)
    usual = max(counts, key=lambda n: (counts[n], n)) if counts else 0
    usual = usual or max((len(row.entries) + row.unknown_before for row in rows), default=0)
    for row in rows:
        missing = usual - len(row.entries)
        if 0 < missing <= row.unknown_before:
            row.entries[:0] = [Entry(0, "?", False, None, None, "?")] * missing


def place_texts(players: list[FilePlayer], numbers: dict[str, int]) -> dict[str, str]:
    """What the writer puts in each line's place column. The players' numbers, unless
    their standings share places as OpenGotha writes them (numbered 1, 2, … in order, a
    tie or a leading unknown place): then each standing, blank where it repeats the line
    above's, so the table reads back with the same standings and opponents."""
    in_order = [numbers[p.key] for p in players] == list(range(1, len(players) + 1))
    standings = [p.place for p in players]
    known = [place for place in standings if place is not None]
    leading_unknown = standings[: len(standings) - len(known)] == [None] * (
        len(standings) - len(known)
    )
    shared = any(
        place is None or (at and place == standings[at - 1]) for at, place in enumerate(standings)
    )
    if not (in_order and shared and leading_unknown):
        return {p.key: str(numbers[p.key]) for p in players}
    texts = {}
    for at, player in enumerate(players):
        repeated = player.place is None or (at and player.place == standings[at - 1])
        # A blank place before a name that starts with a digit would read as the place.
        blank = repeated and not player.family_name[:1].isdigit()
        texts[player.key] = "" if blank else str(player.place or numbers[player.key])
    return texts
