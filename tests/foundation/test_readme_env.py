"""Every environment variable settings.py reads is in README's configuration table."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = re.compile(r"\benv(?:\.[a-z]+)?\(\s*\"([A-Z][A-Z0-9_]*)\"")


def test_every_variable_read_by_settings_is_documented() -> None:
    names = set(READ.findall((ROOT / "clubsite" / "config" / "settings.py").read_text()))
    assert {"DATABASE_URL", "DJANGO_EMAIL_BACKEND", "AXES_ENABLED"} <= names  # the pattern works
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration") :]
    table = table[: table.index("\n## ")]
    missing = sorted(name for name in names if f"`{name}`" not in table)
    assert missing == []
