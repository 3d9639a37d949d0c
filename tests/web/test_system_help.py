"""The "How is this rating computed?" pages (issue 12): every figure of each page's worked
example is the engine's, the pages exist in three languages, and the questions link to them."""

from __future__ import annotations

import html
import json
import math
import re

import pytest
from django.urls import reverse
from django.utils import translation

from ratings.display import system_help
from ratings.systems import rate_json
from ratings.systems.registry import SYSTEMS

FIGURE = re.compile(r'<span class="fig" data-figure="([^"]+)" data-places="(-?\d*)">([^<]*)</span>')
LANGUAGES = ("en", "uk", "ru")
# A phrase each language's page has (and no other language's): the text is really translated.
LANGUAGE_MARKERS = {
    "en": "Worked example",
    "uk": "Приклад розрахунку",
    "ru": "Пример расчёта",
}


def _same(stored: object, fresh: object, where: str) -> None:
    if isinstance(fresh, dict):
        assert isinstance(stored, dict), where
        for key, value in stored.items():
            assert key in fresh, f"{where}.{key}: not in the engine's answer"
            _same(value, fresh[key], f"{where}.{key}")
    elif isinstance(fresh, list):
        assert isinstance(stored, list) and len(stored) == len(fresh), where
        for index, (a, b) in enumerate(zip(stored, fresh, strict=True)):
            _same(a, b, f"{where}.{index}")
    elif isinstance(fresh, float | int) and not isinstance(fresh, bool):
        assert isinstance(stored, float | int), where
        assert math.isclose(stored, fresh, rel_tol=1e-9, abs_tol=1e-9), (where, stored, fresh)
    else:
        assert stored == fresh, (where, stored, fresh)


def test_every_system_has_a_page_in_english_and_an_example():
    assert set(system_help.SYSTEM_CODES) == set(SYSTEMS)


@pytest.mark.parametrize("code", system_help.SYSTEM_CODES)
def test_stored_example_is_what_the_engine_answers_now(code):
    """The stored answer the page shows equals a fresh run of the engine on the stored input.
    If the engine's rules change, refresh ratings/system_help_examples/<code>.json and the
    page's prose."""
    data = system_help.example(code)
    assert data["input"]["system"] == code
    fresh = rate_json(data["input"])
    _same(data["output"], fresh, code)
    assert len(data["output"]["players"]) == len(fresh["players"])


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", system_help.SYSTEM_CODES)
def test_every_figure_on_the_page_is_the_engines(client, code, lang):
    client.cookies["django_language"] = lang
    response = client.get(reverse("rating_system", args=[code]))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{lang}">' in page
    assert LANGUAGE_MARKERS[lang] in page
    for other, marker in LANGUAGE_MARKERS.items():
        if other != lang:
            assert marker not in page
    fresh = rate_json(system_help.example(code)["input"])
    figures = FIGURE.findall(page)
    # the example's table alone shows every player's before, after and change
    assert len(figures) >= 3 * len(fresh["players"]) + 4
    shown_paths = {path for path, _places, _text in figures}
    for player in fresh["players"]:
        assert f"{player['id']}.after" in shown_paths
        for index, _game in enumerate(player["games"]):
            assert f"{player['id']}.games.{index}.change" in shown_paths
    with translation.override(lang):
        for path, places, text in figures:
            value = system_help.figure_value(fresh, path)
            expected = system_help.format_figure(value, path, int(places) if places else None)
            assert html.unescape(text) == expected, (code, lang, path)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_index_lists_the_five_systems(client, lang):
    client.cookies["django_language"] = lang
    page = client.get(reverse("rating_systems")).content.decode()
    for code in system_help.SYSTEM_CODES:
        assert reverse("rating_system", args=[code]) in page


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["nope", "EGF", "systems", "egf-x"])
def test_unknown_system_is_404(client, code):
    assert client.get(f"/rating-systems/{code}/").status_code == 404


def test_a_missing_language_falls_back_to_english():
    assert system_help.help_template("egf", "de").origin.name.endswith("egf.en.html")
    assert system_help.help_template("egf", "uk").origin.name.endswith("egf.uk.html")
    assert system_help.help_template("egf", None).origin.name.endswith("egf.en.html")


def test_figures_are_formatted_for_people():
    with translation.override("uk"):
        assert system_help.format_figure(-3.84, "A.games.0.change") == "−3,8"
        assert system_help.format_figure(0.2396, "A.games.0.expected") == "0,240"
    with translation.override("en"):
        assert system_help.format_figure(12.0, "A.change", 0) == "+12"
        assert system_help.format_figure(1865.878, "A.after", 1) == "1865.9"
        assert system_help.format_figure(None, "A.games.0.expected") == "—"


def test_the_examples_are_small_and_valid_contract_input():
    for code in system_help.SYSTEM_CODES:
        data = json.loads((system_help.EXAMPLES_DIR / f"{code}.json").read_text(encoding="utf-8"))
        assert len(data["input"]["players"]) <= 4 and len(data["input"]["games"]) <= 4


@pytest.mark.django_db
def test_the_questions_link_to_the_system_page(client, world):
    """Rating list header, profile list card, profile breakdown, breakdown page, calculator."""
    from ratings.models import RatingHistory

    egf_page = reverse("rating_system", args=["egf"])
    link = f'class="system-help-link" href="{egf_page}"'

    list_page = client.get(reverse("rating_list", args=[world.rating_list.slug])).content.decode()
    assert link in list_page

    player = world.players[0]
    profile = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    card = profile.split('data-testid="current-rating"')[1].split("</div></div>")[0]
    assert egf_page in card
    breakdown_rows = re.findall(r'<tr class="breakdown-row".*?</td></tr>', profile, re.S)
    assert breakdown_rows and all(egf_page in row for row in breakdown_rows)

    row = RatingHistory.objects.filter(member=player).first()
    breakdown = client.get(reverse("player_breakdown", args=[player.pk, row.pk])).content.decode()
    assert link in breakdown

    calc = client.get(
        reverse("calculator"), {"game": "go", "rating_a": 2100, "rating_b": 1800, "handicap": 0}
    ).content.decode()
    for code in ("egf", "ufgo", "rivne"):
        assert f'href="{reverse("rating_system", args=[code])}"' in calc

    lists = client.get(reverse("rating_lists")).content.decode()
    assert reverse("rating_systems") in lists
