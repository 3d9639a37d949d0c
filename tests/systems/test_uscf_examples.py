"""Every `uscf-*.json` worked example, through `rate_json`, reproduced exactly (spec Part E)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ratings.systems import rate_json
from tests.systems.examples import load_examples

EXAMPLES = load_examples("uscf")


@pytest.mark.parametrize(
    ("name", "given", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_example_is_reproduced_exactly(
    name: str, given: dict[str, Any], expected: dict[str, Any]
) -> None:
    result = rate_json(given)
    assert result == expected
    # Same JSON types too: whole ratings stay integers, never 1638.0.
    assert json.dumps(result, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 6


def test_u2_same_round_games_are_accepted_through_rate_json() -> None:
    document = {
        "system": "uscf",
        "event": {"id": "batch", "date": "2002-03-04"},
        "players": [{"id": "a", "rating": 1600}, {"id": "b", "rating": 1400}],
        "games": [
            {"round": 1, "white": "a", "black": "b", "result": "white"},
            {"round": 1, "white": "b", "black": "a", "result": "white"},
        ],
    }
    result: Any = rate_json(document)
    assert [len(p["games"]) for p in result["players"]] == [2, 2]
