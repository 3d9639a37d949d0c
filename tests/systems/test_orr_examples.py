"""Every `orr-*.json` worked example, through `rate_json`, reproduced exactly.

`notes` are informative and not compared (spec orr.md Part D); everything
else must match value for value, in the contract's key order.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ratings.systems import rate_json

from .examples import load_examples

EXAMPLES = load_examples("orr")
BY_NAME = {name: (event, expected) for name, event, expected in EXAMPLES}


def _without_notes(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key != "notes"}


@pytest.mark.parametrize(
    ("name", "event", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_example_is_reproduced_exactly(
    name: str, event: dict[str, Any], expected: dict[str, Any]
) -> None:
    result = rate_json(event)
    assert isinstance(result["notes"], list)
    assert _without_notes(result) == _without_notes(expected)
    # Same number types and digits (4.0 is not 4 in the text). Keys sorted: the JSON
    # boundary canonicalises the order of `history` keys.
    assert json.dumps(_without_notes(result), sort_keys=True) == json.dumps(
        _without_notes(expected), sort_keys=True
    )


def _player(document: dict[str, Any], player_id: str) -> dict[str, Any]:
    (player,) = [p for p in document["players"] if p["id"] == player_id]
    return player


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("orr-02-one-game-newcomer.json", "orr-06-provisional-second.json"),
        ("orr-06-provisional-second.json", "orr-07-settled.json"),
    ],
)
def test_the_chained_examples_carry_p2_state_exactly(earlier: str, later: str) -> None:
    """What one event hands back for p2 is what the next event starts from (B.8)."""
    handed_back = _player(rate_json(BY_NAME[earlier][0]), "p2")
    next_input = _player(BY_NAME[later][0], "p2")
    assert handed_back["after"] == next_input["rating"]
    assert handed_back["history"] == next_input["history"]
    assert handed_back["provisional"] is True


def test_rating_is_deterministic_and_does_not_touch_its_input() -> None:
    event = BY_NAME["orr-07-settled.json"][0]
    snapshot = json.dumps(event, sort_keys=True)
    first, second = rate_json(event), rate_json(event)
    assert json.dumps(first) == json.dumps(second)
    assert json.dumps(event, sort_keys=True) == snapshot
