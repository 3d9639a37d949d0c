"""Shared Playwright fixtures: Debian's Chromium, headless, one page per test.

Playwright's own browser download does not work here; the system Chromium is used.
Tests using these are marked `@pytest.mark.browser` and skip when Chromium is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.audit import ConsoleWatch, audit_page

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        message = "Chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop; Django refuses ORM calls beside it unless
    # told. Only while a browser runs, so the flag does not leak into other tests' processes.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def console_watch() -> ConsoleWatch:
    """The CSP reports of the test's pages (tests/browser/audit.py)."""
    return ConsoleWatch()


@pytest.fixture
def browser_page(chromium_browser: object, console_watch: ConsoleWatch) -> Iterator[object]:
    """A fresh page (1280×900, English) in its own context; closed after the test. A CSP
    violation its console reports on any page fails the test (issue 55)."""
    context = chromium_browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 1280, "height": 900}, locale="en-GB"
    )
    page = context.new_page()
    console_watch.attach(page)
    page.set_default_timeout(15_000)
    yield page
    context.close()
    if console_watch.reports:
        pytest.fail("CSP violations:\n" + "\n".join(console_watch.reports))


@pytest.fixture
def audit(browser_page: object, console_watch: ConsoleWatch):  # noqa: ANN201
    """`audit()`: axe-core finds no violation on the page as it is, at 1366 px and 390 px,
    and no CSP violation was reported; `audit(page)` for another page of the same watch."""

    def check(page: object | None = None) -> None:
        audit_page(page or browser_page, console_watch)

    return check


@pytest.fixture
def screenshot(browser_page: object):  # noqa: ANN201
    """`screenshot("name")` saves a full-page PNG under artifacts/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        browser_page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        return path

    return take
