"""The engine is pure: no Django, deterministic output, fully typed."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

from ratings.systems import rate_json
from ratings.systems.io import dumps
from ratings.systems.registry import SYSTEMS

from .examples import REPO_ROOT, load_examples

CHECK_NO_DJANGO = """
import importlib, pkgutil, sys
import ratings.systems
from ratings.systems.registry import SYSTEMS
for module in pkgutil.iter_modules(ratings.systems.__path__):
    if module.name != "__main__":
        importlib.import_module("ratings.systems." + module.name)
assert SYSTEMS, "no systems registered"
bad = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print(len(SYSTEMS), bad)
sys.exit(1 if bad else 0)
"""


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}


def test_importing_every_system_leaves_django_out() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", CHECK_NO_DJANGO],
        capture_output=True,
        cwd=REPO_ROOT,
        env=_clean_env(),
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_mypy_strict_is_clean() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "ratings/systems"],
        capture_output=True,
        cwd=REPO_ROOT,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_same_input_gives_byte_identical_output() -> None:
    for code in sorted(SYSTEMS):
        for _, event, _ in load_examples(code):
            first = dumps(rate_json(event))
            assert dumps(rate_json(json.loads(json.dumps(event)))) == first


def test_output_does_not_depend_on_input_key_order() -> None:
    rng = random.Random(7)

    def shuffle_keys(value: object) -> object:
        if isinstance(value, dict):
            items = list(value.items())
            rng.shuffle(items)
            return {k: shuffle_keys(v) for k, v in items}
        if isinstance(value, list):
            return [shuffle_keys(v) for v in value]
        return value

    for code in sorted(SYSTEMS):
        for _, event, _ in load_examples(code):
            assert dumps(rate_json(shuffle_keys(event))) == dumps(rate_json(event))


def test_output_keys_follow_the_contract_order() -> None:
    _, event, _ = load_examples("egf")[0]
    result = rate_json(event)
    assert list(result) == ["system", "event", "players", "notes"]
    player = result["players"][0]
    assert list(player) == [
        "id", "before", "after", "change", "rated", "provisional", "anomalous", "history", "games",
    ]  # fmt: skip
    assert list(player["games"][0]) == ["round", "opponent", "score", "expected", "change"]
