"""Results a file does not enter (OpenGotha's `?`, TRF's blank or `*`): read as not
played and not rated, with one warning per round saying so."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from tournaments.formats.model import FileBye, FileGame, ProblemLog, gettext_noop


def warn_not_entered(
    games: Iterable[FileGame], byes: Iterable[FileBye], mark: str, log: ProblemLog
) -> None:
    """One warning per round that has pairings or players without a result entered."""
    rounds: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    seats: list[FileGame | FileBye] = [g for g in games if g.kind == "unplayed"]
    seats += [b for b in byes if b.kind == "unplayed"]
    for seat in seats:
        counts = rounds[seat.round]
        counts[0 if isinstance(seat, FileGame) else 1] += 1
        counts[2] = min(counts[2] or (seat.line or 0), seat.line or counts[2] or 0)
    for round_number, (paired, alone, line) in sorted(rounds.items()):
        log.warn(
            line or None,
            gettext_noop(
                "Round %(round)s: %(paired)s pairings and %(alone)s players without an"
                " opponent have no result entered (%(mark)s); read as not played, not rated."
            ),
            round=round_number,
            paired=paired,
            alone=alone,
            mark=mark,
        )
