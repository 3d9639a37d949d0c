"""Words that reach the pages from data (system titles, file formats) are translated."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from ratings.system_titles import SYSTEM_TITLES, system_title
from ratings.systems.registry import SYSTEMS
from tournaments.formats import FORMATS
from tournaments.forms import FORMAT_TITLES


def test_every_system_and_format_has_a_translatable_title():
    assert set(SYSTEM_TITLES) == set(SYSTEMS)
    assert set(FORMAT_TITLES) == set(FORMATS)
    with translation.override("en"):
        assert {k: str(v) for k, v in SYSTEM_TITLES.items()} == {
            k: s.title for k, s in SYSTEMS.items()
        }
        assert {k: str(v) for k, v in FORMAT_TITLES.items()} == {
            k: f.title for k, f in FORMATS.items()
        }
