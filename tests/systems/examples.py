"""Load the worked examples of `shared/spec/examples/` (each file: "input" and "expected").

`load_examples("egf")` globs `egf-*.json`, so a new example file is picked up
without touching the tests. Use the result with `pytest.mark.parametrize`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED = REPO_ROOT / ".." / "shared"
EXAMPLES_DIR = SHARED / "spec" / "examples"
REFDATA_DIR = SHARED / "refdata"


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
