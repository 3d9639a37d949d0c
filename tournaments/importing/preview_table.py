"""The crosstable an import will save, built from the parsed file alone (writes nothing).

Each cell is written the way the EGD table and the site's crosstable write it: the
opponent's number, + / - / =, the colour and the handicap (`3+/b2`); a bye is `0+`,
`0=` or `0-`; a game not rated is in brackets.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.formats.model import FileBye, FileGame, ResultsFile


@dataclass(frozen=True)
class PreviewRow:
    number: int
    name: str
    grade: str
    cells: list[str]
    points: float


@dataclass(frozen=True)
class PreviewTable:
    rounds: list[int]
    rows: list[PreviewRow]


def _cell(seat: FileGame | FileBye | None, key: str, numbers: dict[str, int]) -> str:
    if seat is None:
        return ""
    if isinstance(seat, FileBye):
        return "0" + {1.0: "+", 0.5: "="}.get(seat.points, "-")
    is_white = seat.white == key
    opponent = numbers.get(seat.black if is_white else seat.white, 0)
    if seat.result == "draw":
        outcome = "="
    elif seat.result == "none":
        outcome = "-"
    else:
        outcome = "+" if (seat.result == "white") == is_white else "-"
    colour = ("/w" if is_white else "/b") if seat.colours_known else ""
    handicap = str(seat.handicap) if seat.handicap else ""
    text = f"{opponent}{outcome}{colour}{handicap}"
    return text if seat.is_rated else f"({text})"


def preview_crosstable(results: ResultsFile) -> PreviewTable:
    """Players in the file's order, numbered 1…n, with one cell per round."""
    numbers = {player.key: index for index, player in enumerate(results.players, start=1)}
    seats = results.seats()
    rounds = sorted({r for r, _key in seats} | {g.round for g in results.games})
    rows = [
        PreviewRow(
            number=numbers[player.key],
            name=f"{player.given_name} {player.family_name}".strip() or player.key,
            grade=player.grade or "",
            cells=[_cell(seats.get((r, player.key)), player.key, numbers) for r in rounds],
            points=results.points_of(player.key),
        )
        for player in results.players
    ]
    return PreviewTable(rounds=rounds, rows=rows)
