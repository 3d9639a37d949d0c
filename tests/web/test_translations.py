"""Words that reach the pages from data (system titles, file formats) are translated."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from ratings.display.system_titles import SYSTEM_TITLES, system_title
from ratings.systems.registry import SYSTEMS
from tournaments.formats import FORMATS
from tournaments.views.forms import FORMAT_TITLES


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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "system", "fmt", "ufgo_note"),
    [
        ("uk", "Індивідуальний коефіцієнт Української федерації го (УФГО)",
         "Турнірна таблиця EGD (.h9, .txt)", "В УФГО немає поправки на фору."),
        ("ru", "Индивидуальный коэффициент Украинской федерации го (УФГО)",
         "Турнирная таблица EGD (.h9, .txt)", "В УФГО нет поправки на фору."),
    ],
)  # fmt: skip
def test_titles_and_notes_are_translated(client, lang, system, fmt, ufgo_note):
    from clubsite.models import Club
    from tournaments.views.forms import ResultsUploadForm

    with translation.override(lang):
        assert system_title("ufgo") == system
        form = ResultsUploadForm(clubs=Club.objects.none())
        assert fmt in [str(label) for _code, label in form.fields["fmt"].choices]
    client.cookies["django_language"] = lang
    html = client.get(
        reverse("calculator"), {"game": "go", "rating_a": 2100, "rating_b": 1800, "handicap": 3}
    ).content.decode()
    assert system in html and ufgo_note in html
