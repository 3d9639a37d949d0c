"""A system's own JSON path (`RatingSystem.rate_json`) writes, byte for byte, what the
general one writes: `output_to_json(rate(event))`, then `dumps`.

The fast path skips the output records (`PlayerOutput`, `GameOutput`); it must not change
a single character of the output, nor what is bad input.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from ratings.systems import BadInput, rate_json
from ratings.systems.io import dumps, parse_event
from ratings.systems.output import output_to_json
from ratings.systems.registry import SYSTEMS

from .examples import load_examples
from .test_core_fuzz import mutated_events
from .test_egf_properties import tournaments

FAST_PATHS = sorted(code for code, system in SYSTEMS.items() if system.rate_json is not None)
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _general_path(document: Any) -> str:
    """What `rate_json` gives without a system's own JSON path."""
    system, event = parse_event(document, SYSTEMS)
    return dumps(output_to_json(system.rate(event)))


def _both_paths(document: Any) -> tuple[str, str]:
    try:
        general = _general_path(document)
    except BadInput as error:
        general = f"BadInput: {error}"
    try:
        fast = dumps(rate_json(document))
    except BadInput as error:
        fast = f"BadInput: {error}"
    return general, fast


def test_egf_has_its_own_json_path() -> None:
    assert "egf" in FAST_PATHS


@pytest.mark.parametrize("code", FAST_PATHS)
def test_worked_examples_give_the_same_bytes(code: str) -> None:
    for name, document, _ in load_examples(code):
        general, fast = _both_paths(document)
        assert fast == general, name
        assert not fast.startswith("BadInput"), name


@PROPERTY
@given(tournaments())
def test_egf_tournaments_give_the_same_bytes(document: dict[str, Any]) -> None:
    general, fast = _both_paths(document)
    assert fast == general


@PROPERTY
@given(mutated_events())
def test_mutated_events_give_the_same_bytes_or_the_same_error(document: dict[str, Any]) -> None:
    general, fast = _both_paths(document)
    assert fast == general


def test_egf_realistic_events_with_limits_and_shuffled_games_give_the_same_bytes() -> None:
    """A realistic year's events; every other one with its games in reverse order and
    limits of egf.md §5 that bite (so that there are notes)."""
    from ratings.systems.bench import _chain, _players, realistic_year

    rng = random.Random(5)
    pool = _players(300, rng)
    documents = _chain(SYSTEMS["egf"], realistic_year(1500, pool, rng), pool)
    noted = 0
    for number, document in enumerate(documents):
        document = copy.deepcopy(document)
        if number % 2:
            document["games"].reverse()
            document["params"] = {"max_drop": 5.0, "floor": 1500.0}
        general, fast = _both_paths(document)
        assert fast == general
        assert not fast.startswith("BadInput")
        noted += '(floor)"' in fast and '(max_drop)"' in fast
    assert noted >= 2
