"""The rating list's rows drawn in Python (`ratings/views/list_rows.py`) are the markup the
template drew: the same bytes, escaped alike, in English and Ukrainian (issue 18)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from ratings.models import RatingEntry
from tests.factories import ClubFactory, MemberFactory, RatingListFactory

pytestmark = pytest.mark.django_db

# The loop `_rating_table.html` had before the rows were drawn in Python, with the Go
# list's EGD PIN column after the country (issue 56).
TEMPLATE_ROWS = (
    "{% load i18n l10n %}{% localize off %}{% for e in records %}\n"
    '    <tr><td class="num">{{ e.rank }}</td><td><a href="{{ player_prefix }}{{ e.member_id }}/">'
    "{{ e.member.full_name }}</a>{% if e.inactive %} "
    '<span class="badge text-bg-light border inactive-badge" '
    "title=\"{% translate 'Out of the live list for inactivity' %}\">"
    '{% translate "inactive" %}</span>{% endif %}</td><td>{{ e.grade|default_if_none:"" }}</td>'
    '<td>{% if e.member.club_id %}<a href="{{ club_prefix }}{{ e.member.club.slug }}/">'
    "{{ e.member.club.name }}</a>{% else %}—{% endif %}</td><td>{{ e.member.country }}</td>"
    "<td>{{ e.member.egd_pin }}</td>"
    '<td class="num rating">{{ e.shown }}</td><td class="num">{{ e.tournaments }}</td>'
    '<td>{{ e.last_played|date:"SHORT_DATE_FORMAT" }}</td></tr>\n'
    "  {% endfor %}{% endlocalize %}"
)


@pytest.fixture
def odd_list(db):
    """Names, clubs and countries that need escaping; no club, no grade, no date; inactive."""
    rating_list = RatingListFactory(slug="odd")
    club = ClubFactory(name='Go & "Baduk" <Club>', slug="go-baduk")
    people = [
        MemberFactory(given_name="O'Neil", family_name="<b>Bold</b>", club=club, country="UA"),
        MemberFactory(given_name="Ann", family_name="Smith & Sons", club=None, country=""),
        MemberFactory(given_name="Пётр", family_name="Іваненко", club=club, country="PL"),
    ]
    today = dt.date.today()
    for i, member in enumerate(people):
        RatingEntry.objects.create(
            rating_list=rating_list, member=member, rating=2100.5 - 300 * i, tournaments=12 * i,
            grade=None if i == 1 else 5 - 7 * i, provisional=i == 2,
            last_played=None if i == 1 else dt.date(2024, 3, 9 + i),
            active_until=today - dt.timedelta(days=1) if i == 2 else None,
        )  # fmt: skip
    return rating_list


@pytest.mark.parametrize("language", ["en", "uk"])
def test_rows_are_the_templates_markup(client, odd_list, language):
    response = client.get(
        reverse("rating_list", args=["odd"]), {"active": "all"}, HTTP_ACCEPT_LANGUAGE=language
    )
    context = response.context
    records = context["records"]
    assert len(records) == 3 and records[2].inactive
    with translation.override(language):
        drawn = Template(TEMPLATE_ROWS).render(
            Context(
                {"records": records, "player_prefix": "/players/", "club_prefix": "/clubs/"},
                autoescape=True,
            )
        )
    assert str(context["rows_html"]) == drawn
    assert drawn in response.content.decode()
    assert "&lt;b&gt;Bold&lt;/b&gt;" in drawn and "O&#x27;Neil" in drawn
    assert "Go &amp; &quot;Baduk&quot; &lt;Club&gt;" in drawn
    assert re.search(r"<td>—</td><td></td>", drawn)  # no club, no country
    head = response.content.decode().split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert head.count("<th") == 9  # a Go list: the EGD PIN after the country


def test_nobody_matches(client, odd_list):
    html = client.get(reverse("rating_list", args=["odd"]), {"q": "nobody"}).content.decode()
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert body == (
        '\n  \n    <tr><td colspan="9" class="muted">Nobody matches these filters.</td></tr>\n'
        "  \n  "
    )
