"""The audit helper itself (tests/browser/audit.py) can fail: it sees a CSP report and an axe
violation on a page made to have them."""

from __future__ import annotations

import pytest

from tests.browser.audit import ConsoleWatch, audit_page, axe_violations

pytestmark = pytest.mark.browser

POLICY = "default-src 'self'; style-src 'self'; script-src 'self'"
BAD_PAGE = (
    '<!doctype html><html lang="en"><head><title>t</title></head><body><main>'
    '<p style="color:red">inline</p><img src="/x.png"></main></body></html>'
)


def _serve(page, html: str) -> None:  # noqa: ANN001
    page.route(
        "http://audit.test/**",
        lambda route: route.fulfill(
            status=200,
            body=html,
            headers={"Content-Type": "text/html", "Content-Security-Policy": POLICY},
        ),
    )


def test_the_helper_reports_csp_refusals_and_axe_violations(chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch = ConsoleWatch()
    watch.attach(page)
    _serve(page, BAD_PAGE)
    page.goto("http://audit.test/")
    page.wait_for_timeout(100)
    assert any("inline style" in r for r in watch.reports), watch.reports
    assert "image-alt" in {v["id"] for v in axe_violations(page)}
    with pytest.raises(AssertionError, match="CSP violations"):
        audit_page(page, watch)
    watch.reports.clear()
    with pytest.raises(AssertionError, match=r"390 px image-alt"):
        audit_page(page, watch)
    assert page.viewport_size["width"] == 1280  # the width is given back
    context.close()
