"""Every `egf-*.json` worked example, through `rate_json`, reproduced exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ratings.systems import rate_json

from .examples import load_examples

EXAMPLES = load_examples("egf")


@pytest.mark.parametrize(
    ("name", "event", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_example_is_reproduced_exactly(
    name: str, event: dict[str, Any], expected: dict[str, Any]
) -> None:
    result = rate_json(event)
    assert result == expected
    # Same floats to the last digit and the contract's key order, not merely equal values.
    assert json.dumps(result) == json.dumps(expected)
