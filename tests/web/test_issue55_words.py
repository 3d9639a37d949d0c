"""Issue 55, finding 11 (the words and dates): English pages write dates the British way,
not the US one; one stone is "1 handicap stone" ("1 камінь" in Ukrainian); the Ukrainian
catalogue holds no Russian letters ("бйоёмі", "форы"); a chess list has no Grade column."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils import translation

from clubsite.fields import parse_grade
from ratings.models import RatingEntry
from tests.factories import GameFactory, MemberFactory, RatingListFactory, TournamentFactory
from tournaments.handicaps import HandicapMismatch

UK_CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "uk" / "LC_MESSAGES" / "django.po"
OCTOBER_8 = dt.date(2026, 10, 8)


@pytest.mark.parametrize(
    ("fmt", "shown"),
    [("SHORT_DATE_FORMAT", "08/10/2026"), ("DATE_FORMAT", "8 October 2026")],
)
def test_english_dates_are_british(fmt, shown):
    with translation.override("en"):
        assert date_filter(OCTOBER_8, fmt) == shown


@pytest.mark.django_db
def test_an_english_page_writes_the_british_date(client):
    tournament = TournamentFactory(
        name="October Cup", start_date=OCTOBER_8, status="approved", organiser__name="Rivne"
    )
    html = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert "8 October 2026" in html and "October 8, 2026" not in html


def test_ukrainian_and_russian_dates_stay_their_own():
    with translation.override("uk"):
        assert date_filter(OCTOBER_8, "SHORT_DATE_FORMAT") == "08.10.2026"
    with translation.override("ru"):
        assert date_filter(OCTOBER_8, "SHORT_DATE_FORMAT") == "08.10.2026"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "stones", "words"),
    [
        ("en", 1, "has 1 handicap stone;"),
        ("en", 3, "has 3 handicap stones;"),
        ("uk", 1, "фора 1 камінь,"),
        ("uk", 3, "фора 3 камені,"),
        ("uk", 5, "фора 5 каменів,"),
        ("ru", 1, "фора 1 камень,"),
        ("ru", 5, "фора 5 камней,"),
    ],
)
def test_handicap_warning_counts_its_stones(language, stones, words):
    game = GameFactory(handicap=stones)
    mismatch = HandicapMismatch(
        game=game, white_grade=parse_grade("1d"), black_grade=parse_grade("2k"), expected=2
    )
    with translation.override(language):
        assert words in mismatch.text("h9")


def test_the_ukrainian_catalogue_has_no_russian_letters():
    text = UK_CATALOGUE.read_text(encoding="utf-8")
    translated = re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', text, flags=re.MULTILINE)
    russian = [line for line in translated if re.search(r"[ёыэъЁЫЭЪ]|форы", line)]
    assert russian == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "system", "has_grades"), [("chess", "orr", False), ("go", "egf", True)]
)
def test_a_list_shows_a_grade_column_only_where_grades_exist(client, game, system, has_grades):
    rating_list = RatingListFactory(slug=f"{game}-list", system=system, game=game)
    member = MemberFactory(family_name="Petrenko")
    RatingEntry.objects.create(rating_list=rating_list, member=member, rating=1600, games=5)
    html = client.get(reverse("rating_list", args=[rating_list.slug])).content.decode()
    assert "Petrenko" in html
    table = html[html.index('class="table') : html.index("</table>")]
    assert ("rating-table no-grades" not in table) is has_grades


@pytest.mark.django_db
def test_a_profile_can_ask_for_us_dates_on_english_pages(client):
    """ "en-GB unless the user's profile says otherwise": the setting is saved from my profile
    and changes English pages only; the EN button stays the current language."""
    from clubsite.models import Profile
    from tests.factories import UserFactory

    user = UserFactory(username="visitor")
    tournament = TournamentFactory(name="October Cup", start_date=OCTOBER_8, status="approved")
    url = reverse("tournament_detail", args=[tournament.pk])
    client.force_login(user)
    assert "8 October 2026" in client.get(url).content.decode()  # no profile: British

    response = client.post(reverse("my_profile"), {"date_settings": "1", "dates-date_style": "us"})
    assert response.status_code == 302
    assert Profile.objects.get(user=user).date_style == "us"
    html = client.get(url).content.decode()
    assert "October 8, 2026" in html and "8 October 2026" not in html
    assert re.search(r'class="btn btn-sm active"\s+aria-current="true" data-lang="en"', html)

    client.post(reverse("set_language"), {"language": "uk", "next": url})
    assert "8 жовтня 2026" in client.get(url).content.decode()  # Ukrainian keeps its own
    client.post(reverse("set_language"), {"language": "en", "next": url})
    client.post(reverse("my_profile"), {"date_settings": "1", "dates-date_style": ""})
    assert "8 October 2026" in client.get(url).content.decode()
