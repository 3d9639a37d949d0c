"""Issue 55, finding 2: the Content-Security-Policy (`style-src 'self'`) refuses inline
styles, so a `style=` attribute or a `<style>` block in a page is a rule the browser drops
(the roster's `max-height` was one: the list grew to 986 px). Every page of the URLconf is
rendered as each role from the crawler's world, and each template file is read as well, for
the branches the world does not reach."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.manage_data import FAST_HASHERS
from tests.web.test_crawler import ROLES, fill, url_patterns, world_for_crawling  # noqa: F401

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
INLINE_STYLE = re.compile(r"<style\b|\sstyle\s*=", re.IGNORECASE)


def inline_styles(html: str) -> list[str]:
    """Each inline style in the page, with a little of what surrounds it."""
    return [html[max(m.start() - 60, 0) : m.end() + 40] for m in INLINE_STYLE.finditer(html)]


def test_the_pattern_finds_what_the_browser_refuses():
    assert inline_styles('<div class="x" style="max-height:16rem">')
    assert inline_styles("<head><style>p{}</style></head>")
    assert not inline_styles('<p data-style="x">styles and style-src</p>')


def test_no_page_has_an_inline_style(client, settings, world_for_crawling):  # noqa: F811
    settings.PASSWORD_HASHERS = FAST_HASHERS
    setup, values = world_for_crawling
    urls = [fill(route, name, values) for route, name in url_patterns()]
    found, pages = [], 0
    for role in ROLES:
        client.logout()
        if role != "anonymous":
            client.force_login(setup.user(role))
        for url in urls:
            response = client.get(url)
            if "text/html" not in response.headers.get("Content-Type", ""):
                continue
            pages += 1
            found += [(role, url, style) for style in inline_styles(response.content.decode())]
    assert pages > 100  # the walk reached the pages, not only their redirects
    assert not found, found[:10]


def test_no_template_has_an_inline_style():
    found = [
        (str(path.relative_to(TEMPLATES)), style)
        for path in TEMPLATES.rglob("*.html")
        for style in inline_styles(path.read_text(encoding="utf-8"))
    ]
    assert not found, found
