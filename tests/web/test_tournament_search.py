"""The public tournament list's search: any part of the name or city, any case."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_search_matches_inside_the_name_or_the_city_in_any_case(client):
    TournamentFactory(name="Kharkiv Spring Open", city="Kharkiv", status="approved")
    TournamentFactory(name="Winter Cup", city="Lviv", status="approved")
    TournamentFactory(name="Draft Open", city="Kharkiv", status="draft")
    url = reverse("tournament_list")

    def names(query):  # noqa: ANN001, ANN202
        return sorted(t.name for t in client.get(url, {"q": query}).context["table"].data)

    assert names("SPRING") == ["Kharkiv Spring Open"]
    assert names("lviv") == ["Winter Cup"]
    assert names("arkiv") == ["Kharkiv Spring Open"]  # drafts stay out
    assert names("Nowhere") == []


def test_search_reads_trigram_indexes_on_postgresql(db):
    # `icontains` is UPPER(column) LIKE '%…%': only these indexes spare reading every row.
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: the indexes are pg_trgm's")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'tournaments_tournament'"
        )
        indexes = dict(cursor.fetchall())
    for column in ("name", "city"):
        definition = indexes[f"tournament_{column}_trgm"]
        assert f"upper(({column})::text) gin_trgm_ops" in definition


def test_the_drawn_filter_form_is_kept_per_filter_and_language(client):
    """The filter form is drawn once per filter and language and kept: each filter still
    shows what was asked, a typed value escaped, and an invalid one its error."""
    url = reverse("tournament_list")

    def form(query: dict[str, str], language: str = "en") -> str:
        html = client.get(url, query, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        # The tournaments' own filter, not the header's site search.
        return html.split('class="card filter-card', 1)[1].split("</form>", 1)[0]

    typed = 'Kyiv <b>"Open"'
    for _ in range(2):  # drawn, then kept
        assert 'value="Kyiv &lt;b&gt;&quot;Open&quot;"' in form({"q": typed})
        assert "<b>" not in form({"q": typed})
        assert 'value="Lviv"' in form({"q": "Lviv", "sort": "name"})
        assert 'value="Lviv"' not in form({"q": "Kharkiv"})
        assert 'value="submitted" selected' in form({"status": "submitted"})
        assert "selected" not in form({"status": "approved", "q": "x"}).split('"submitted"')[1][:10]
        assert "is-invalid" in form({"status": "nonsense"})
        assert ">Фільтрувати</button>" in form({}, "uk")
        assert ">Filter</button>" in form({}, "en")
