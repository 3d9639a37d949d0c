"""Load the worked examples of `tests/data/examples/` (copied from the spec's
`examples/`) (each file: "input" and "expected").

`load_examples("egf")` globs `egf-*.json`, so a new example file is picked up
without touching the tests. Use the result with `pytest.mark.parametrize`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "tests" / "data"
EXAMPLES_DIR = DATA_DIR / "examples"
REFDATA_DIR = DATA_DIR


def load_examples(prefix: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(file name, input, expected) for every `<prefix>-*.json`, sorted by name."""
    files = sorted(EXAMPLES_DIR.glob(f"{prefix}-*.json"))
    if not files:
        raise FileNotFoundError(f"no {prefix}-*.json examples in {EXAMPLES_DIR}")
    examples = []
    for path in files:
        document = json.loads(path.read_text(encoding="utf-8"))
        examples.append((path.name, document["input"], document["expected"]))
    return examples
