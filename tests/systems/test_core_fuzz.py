"""Fuzzing the boundary: random JSON and mutated valid events never crash the engine.

`rate_json` either returns a JSON-serialisable result or raises `BadInput`;
the command line exits 0, or 2 with exactly one line on stderr.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.systems import BadInput, rate_json
from ratings.systems.__main__ import main
from ratings.systems.io import dumps
from ratings.systems.registry import SYSTEMS

from .examples import EXAMPLES_DIR, load_examples
from .fuzzing import JSON_VALUES

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _valid_inputs() -> list[dict[str, Any]]:
    codes = sorted({path.name.split("-")[0] for path in EXAMPLES_DIR.glob("*-*.json")})
    return [event for code in codes for _, event, _ in load_examples(code)]


VALID_INPUTS = _valid_inputs()


def _rate_or_bad_input(document: Any) -> None:
    try:
        result = rate_json(document)
    except BadInput as error:
        assert error.field
        assert "\n" not in str(error)
        return
    dumps(result)  # JSON without NaN or infinities


@FUZZ
@given(JSON_VALUES)
def test_random_json_never_crashes(document: Any) -> None:
    _rate_or_bad_input(document)


@st.composite
def mutated_events(draw: st.DrawFn) -> dict[str, Any]:
    document = copy.deepcopy(draw(st.sampled_from(VALID_INPUTS)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        slots: list[tuple[Any, Any]] = []
        stack: list[Any] = [document]
        while stack:
            node = stack.pop()
            keys = range(len(node)) if isinstance(node, list) else sorted(node)
            for key in keys:
                slots.append((node, key))
                if isinstance(node[key], dict | list):
                    stack.append(node[key])
        container, key = draw(st.sampled_from(slots))
        action = draw(st.sampled_from(["replace", "delete", "add", "swap-type"]))
        if action == "replace":
            container[key] = draw(JSON_VALUES)
        elif action == "delete":
            del container[key]
        elif action == "add" and isinstance(container, dict):
            container[draw(st.sampled_from(["grade", "rating", "round", "x", "params"]))] = draw(
                JSON_VALUES
            )
        else:
            value = container[key]
            container[key] = [value] if not isinstance(value, list) else {"v": value}
    return document


@FUZZ
@given(mutated_events())
def test_mutated_valid_events_never_crash(document: dict[str, Any]) -> None:
    _rate_or_bad_input(document)


@pytest.mark.parametrize("code", sorted(SYSTEMS))
def test_every_registered_system_has_valid_fuzz_seeds(code: str) -> None:
    assert any(event["system"] == code for event in VALID_INPUTS)


def _run_cli(data: bytes) -> tuple[int, str, str]:
    stdin = io.TextIOWrapper(io.BytesIO(data))
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["rate", "-"])
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


@FUZZ
@given(
    st.binary(max_size=64)
    | JSON_VALUES.map(lambda v: json.dumps(v).encode())
    | mutated_events().map(lambda v: json.dumps(v).encode())
)
def test_cli_exits_0_or_2_with_one_line(data: bytes) -> None:
    code, out, err = _run_cli(data)
    if code == 0:
        assert err == ""
        json.loads(out)
    else:
        assert code == 2
        assert out == ""
        assert err.endswith("\n") and err.count("\n") == 1 and ": " in err
