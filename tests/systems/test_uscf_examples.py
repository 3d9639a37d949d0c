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
