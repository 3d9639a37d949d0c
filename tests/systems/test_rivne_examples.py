"""Every `rivne-*.json` worked example, through `rate_json`, within the tolerance of rivne.md B2."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.systems import rate_json

from .examples import load_examples

EXAMPLES = load_examples("rivne")
RELATIVE_TOLERANCE = 1e-9  # B2: relative to max(1, |value|)


def assert_matches(actual: Any, expected: Any, where: str = "") -> None:
    """Same structure and keys; numbers within B2's tolerance, everything else equal."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        assert list(actual) == list(expected), where
        for key in expected:
            assert_matches(actual[key], expected[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), where
        assert len(actual) == len(expected), where
        for i, (item, wanted) in enumerate(zip(actual, expected, strict=True)):
            assert_matches(item, wanted, f"{where}[{i}]")
    elif isinstance(expected, bool) or expected is None or isinstance(expected, str):
        assert actual == expected and type(actual) is type(expected), where
    else:
        assert isinstance(actual, int | float) and not isinstance(actual, bool), where
        tolerance = RELATIVE_TOLERANCE * max(1.0, abs(expected))
        assert abs(actual - expected) <= tolerance, f"{where}: {actual} != {expected}"


@pytest.mark.parametrize(
    ("name", "event", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_example_is_reproduced(name: str, event: dict[str, Any], expected: dict[str, Any]) -> None:
    assert_matches(rate_json(event), expected)


@pytest.mark.parametrize(
    ("name", "event", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_games_changes_sum_to_the_total(
    name: str, event: dict[str, Any], expected: dict[str, Any]
) -> None:
    result: Any = rate_json(event)
    for player in result["players"]:
        total = sum(game["change"] for game in player["games"])
        assert total == pytest.approx(player["change"], abs=1e-9)
