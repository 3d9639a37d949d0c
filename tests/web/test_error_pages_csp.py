"""Error pages in the site's layout; a Content-Security-Policy the pages live within
(issue 16, item 5)."""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory
from django.urls import reverse

from clubsite.views.error_views import server_error
from tests.web.manage_data import login, setup  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

LAYOUT = 'class="navbar-brand'


def test_404_in_the_layout(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert LAYOUT in html and 'data-testid="error-page"' in html and "Page not found" in html


def test_403_in_the_layout(client, setup):  # noqa: F811
    login(client, setup, "other_admin")
    response = client.get(reverse("manage_tournament", args=[setup.draft.pk]))
    assert response.status_code == 403
    html = response.content.decode()
    assert LAYOUT in html and 'data-testid="error-page"' in html


def test_500_renders_without_the_request_context():
    request = RequestFactory().get("/")  # no user, no session, no messages
    response = server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    assert LAYOUT in html and "Something went wrong" in html


def test_500_from_a_view_in_the_layout(client, monkeypatch, db):
    import ratings.views.public

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(ratings.views.public.selectors, "rating_list_all", boom)
    client.raise_request_exception = False
    response = client.get(reverse("rating_lists"))
    assert response.status_code == 500
    assert LAYOUT in response.content.decode()


PAGES = ["home", "rating_lists", "tournament_list", "calculator"]


@pytest.mark.parametrize("name", PAGES)
def test_csp_header_and_no_inline_code(client, world, name):
    response = client.get(reverse(name))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    html = response.content.decode()
    inline_scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html)
    assert inline_scripts == []
    assert " style=" not in html and "<style" not in html


def test_profile_and_forms_have_no_inline_code(client, world, setup):  # noqa: F811
    pages = [
        reverse("player_detail", args=[world.players[0].pk]),
        reverse("manage_tournament", args=[setup.draft.pk]),
        reverse("manage_tournament_edit", args=[setup.draft.pk]),
        reverse("login"),
    ]
    login(client, setup, "admin")
    for url in pages:
        html = client.get(url).content.decode()
        assert not re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html), url
        assert " style=" not in html, url
