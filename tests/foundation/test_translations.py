"""The translation catalogues are whole: every plural message has as many forms as its
language's header says (Ukrainian and Russian: four, the last for fractions), so that
`msgfmt --check` accepts them and no count falls back to English."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/django.po"))


def _plural_forms(text: str) -> int:
    return int(re.search(r"nplurals=(\d+);", text).group(1))


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: p.parts[-3])
def test_every_plural_message_has_every_form(po):
    text = po.read_text(encoding="utf-8")
    forms = _plural_forms(text)
    short = []
    for block in text.split("\n\n"):
        if "\nmsgid_plural " not in f"\n{block}":
            continue
        given = {int(n) for n in re.findall(r"^msgstr\[(\d+)\]", block, flags=re.MULTILINE)}
        if given != set(range(forms)):
            short.append(re.search(r'^msgid "(.*)"', block, flags=re.MULTILINE).group(1))
    assert not short, f"{po}: fewer than {forms} forms: {short}"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: p.parts[-3])
def test_msgfmt_accepts_the_catalogue(po):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        if os.environ.get("CI") == "true":
            pytest.fail("msgfmt (gettext) is missing")
        pytest.skip("msgfmt (gettext) is not installed")
    done = subprocess.run(
        [msgfmt, "--check", "-o", os.devnull, str(po)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_there_are_catalogues():
    assert {p.parts[-3] for p in CATALOGUES} >= {"uk", "ru"}
