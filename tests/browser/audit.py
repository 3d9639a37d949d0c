"""What every browser test checks on the pages it visits (issue 55): axe-core finds no
accessibility violation, at a laptop's and a phone's width, and the browser's console reports
no Content-Security-Policy violation.

Use from a test through the fixtures in conftest.py:

    def test_x(live_server, browser_page, audit):
        browser_page.goto(...)
        audit()                       # axe at 1366 px and 390 px on the page as it is now

Every `browser_page` watches its console for CSP reports from its first page to its last
and fails the test at its end if there was one, whether or not `audit()` ran; `audit()`
also fails at once, naming the page. axe comes from tests/browser/vendor/axe-core/ (npm,
vendored); it is put into the page through the DevTools protocol, which the page's CSP
does not govern, so the site's policy stays as it is in production.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

AXE_SOURCE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
WIDTHS = (1366, 390)  # a laptop and a phone: the widths issue 55 was walked at

# axe's default rules: WCAG 2.x A and AA and its best practices (heading order, unique
# landmarks, ...). The violations come back trimmed to what a failure message needs.
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: '
      + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 220)),
    count: v.nodes.length,
  }));
}"""


@cache
def _axe_source() -> str:
    # A trailing expression, so evaluating the file is an expression, not a function.
    return AXE_SOURCE.read_text(encoding="utf-8") + "\n;true"


def is_csp_report(text: str) -> bool:
    """Chromium's console line for a refused script, style, image or connection."""
    return "Content Security Policy" in text or "Content-Security-Policy" in text


@dataclass
class ConsoleWatch:
    """The CSP reports a page's console printed (each with the URL it was printed on)."""

    reports: list[str] = field(default_factory=list)

    def attach(self, page) -> None:  # noqa: ANN001
        page.on("console", lambda message: self._seen(page, message.text))

    def _seen(self, page, text: str) -> None:  # noqa: ANN001
        if is_csp_report(text):
            self.reports.append(f"{page.url}: {text[:300]}")


def axe_violations(page) -> list[dict]:  # noqa: ANN001
    """axe's violations on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    return page.evaluate(RUN_AXE)


def audit_page(page, watch: ConsoleWatch, widths: tuple[int, ...] = WIDTHS) -> None:  # noqa: ANN001
    """Fail, naming the page, the width and the rule, on any axe violation or CSP report."""
    assert not watch.reports, "CSP violations:\n" + "\n".join(watch.reports)
    original = page.viewport_size
    found = []
    try:
        for width in widths:
            page.set_viewport_size({"width": width, "height": original["height"]})
            page.wait_for_timeout(50)  # a frame for the media queries and site.js's resize
            found += [(width, v) for v in axe_violations(page)]
    finally:
        page.set_viewport_size(original)
    lines = [
        f"{width} px {v['id']} ({v['impact']}, {v['count']}×): {v['help']}\n    "
        + "\n    ".join(v["nodes"])
        for width, v in found
    ]
    assert not found, f"axe on {page.url}:\n" + "\n".join(lines)
    assert not watch.reports, "CSP violations:\n" + "\n".join(watch.reports)
