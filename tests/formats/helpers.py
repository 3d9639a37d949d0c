"""Shared paths and small checks for the formats tests."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tournaments.formats.model import FormatError, ResultsFile

TEST_DATA = Path(__file__).resolve().parents[1] / "data"
TABLES = TEST_DATA / "egd" / "tables"
EXAMPLES = TEST_DATA / "examples"
DATA = Path(__file__).resolve().parent / "data"


def messages(error: FormatError) -> list[str]:
    return [str(p) for p in error.problems if p.severity == "error"]


def assert_one_error(
    error_info: pytest.ExceptionInfo[FormatError], line: int, *fragments: str
) -> None:
    """Exactly one error, on `line`, whose message contains every fragment."""
    errors = error_info.value.errors
    assert len(errors) == 1, messages(error_info.value)
    assert errors[0].line == line, str(errors[0])
    for fragment in fragments:
        assert fragment in errors[0].message, (fragment, errors[0].message)


def assert_well_formed(results: ResultsFile) -> None:
    """Every game and bye names known players, and nobody is seated twice in a round."""
    keys = {p.key for p in results.players}
    assert len(keys) == len(results.players)
    seats: Counter[tuple[int, str]] = Counter()
    for game in results.games:
        assert {game.white, game.black} <= keys
        assert game.white != game.black
        assert 0 <= game.handicap <= 9
        seats[(game.round, game.white)] += 1
        seats[(game.round, game.black)] += 1
    for bye in results.byes:
        assert bye.player in keys
        assert bye.points in (0.0, 0.5, 1.0)
        seats[(bye.round, bye.player)] += 1
    assert all(count == 1 for count in seats.values())
