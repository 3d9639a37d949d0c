"""The command line of the contract: `list`, `rate FILE`, `rate -`, exit 2 on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ratings.systems.registry import SYSTEMS

from .examples import REPO_ROOT, load_examples

EXAMPLE_NAME, EXAMPLE_INPUT, EXAMPLE_EXPECTED = load_examples("egf")[3]


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "-m", "ratings.systems", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO_ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_list_prints_code_and_title_per_system() -> None:
    completed = run("list")
    assert completed.returncode == 0
    lines = completed.stdout.decode().splitlines()
    assert [line.split("\t")[0] for line in lines] == list(SYSTEMS)
    assert all(line.split("\t")[1] == SYSTEMS[line.split("\t")[0]].title for line in lines)


def test_rate_file_prints_the_expected_json(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(EXAMPLE_INPUT), encoding="utf-8")
    completed = run("rate", str(path))
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == b""
    assert json.loads(completed.stdout) == EXAMPLE_EXPECTED


def test_rate_stdin_is_byte_identical_to_rate_file(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(EXAMPLE_INPUT), encoding="utf-8")
    from_file = run("rate", str(path))
    from_stdin = run("rate", "-", stdin=json.dumps(EXAMPLE_INPUT).encode())
    assert from_stdin.returncode == 0
    assert from_stdin.stdout == from_file.stdout
    assert json.loads(from_stdin.stdout) == EXAMPLE_EXPECTED


def _bad(document: Any) -> bytes:
    return json.dumps(document).encode()


def _with_game(**changes: Any) -> bytes:
    document = json.loads(json.dumps(EXAMPLE_INPUT))
    document["games"][3].update(changes)
    return _bad(document)


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (_with_game(white="p9"), "games[3].white: unknown player id 'p9'"),
        (_with_game(black="p2"), "games[3].black: player 'p2' cannot play himself"),
        (_with_game(result="won"), "games[3].result: must be 'white', 'black' or 'draw'"),
        (_with_game(handicap=-2), "games[3].handicap: must be between 0 and 9, not -2"),
        (b'{"system": "egf", ', "input: malformed JSON at line 1 column 19"),
        (_bad({**EXAMPLE_INPUT, "system": "go"}), "system: unknown system 'go'"),
    ],
)
def test_bad_input_exits_2_with_one_line(data: bytes, line: str) -> None:
    completed = run("rate", "-", stdin=data)
    assert completed.returncode == 2
    assert completed.stdout == b""
    stderr = completed.stderr.decode()
    assert stderr.count("\n") == 1
    assert stderr.startswith(line)
    assert "Traceback" not in stderr


def test_missing_file_and_bad_usage_exit_2() -> None:
    missing = run("rate", "/nonexistent/event.json")
    assert missing.returncode == 2
    assert missing.stderr.decode().count("\n") == 1
    assert run().returncode == 2
    assert run("frobnicate").returncode == 2
