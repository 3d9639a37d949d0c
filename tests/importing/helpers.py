"""Shared paths and normalisers for the import tests."""

from __future__ import annotations

from pathlib import Path

from tournaments.formats.model import FileBye, ResultsFile

DATA = Path(__file__).resolve().parents[1] / "data"
TABLES = DATA / "egd" / "tables"
EXAMPLES = DATA / "examples"
FORMATS_DATA = Path(__file__).resolve().parents[1] / "formats" / "data"


def table_paths() -> list[Path]:
    return sorted(p for p in TABLES.iterdir() if p.is_file())


def stored_games(results: ResultsFile) -> set[tuple]:
    """The games as the database keeps them: who had White as listed, result, handicap,
    kind, and whether the colours were recorded (issue 14: an unknown colour stays unknown).
    A forfeit both players lost has no winner, so it is stored as a zero bye each.
    """
    return {
        (g.round, g.white, g.black, g.result, g.handicap, g.kind, g.colours_known)
        for g in results.games
        if g.result != "none"
    }


def stored_byes(results: ResultsFile) -> set[tuple]:
    """Byes by round, player and points (the bye's kind has no column in `Game`)."""
    byes = [*results.byes]
    for game in results.games:
        if game.result == "none":
            byes += [FileBye(game.round, game.white, 0.0), FileBye(game.round, game.black, 0.0)]
    return {(b.round, b.player, b.points) for b in byes}
