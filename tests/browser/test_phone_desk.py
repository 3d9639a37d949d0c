"""Issue 55 at a phone's 390 px: the crosstable keeps points and rating changes on screen
(finding 10), the referee queue its Review button, lists and decisions (findings 7 and 10),
the results form's "Colour" stays one word; and a club admin enters a round and a referee
approves the table with everything each step needs on screen, axe and the CSP content."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from ratings.models import ListTournament, RatingHistory
from tests.factories import RatingListFactory, TournamentFactory
from tests.web.data import small_world
from tests.web.manage_data import build

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# The part of an element's width hidden by the viewport or by a box that clips or scrolls it
# (0 when all of it shows), and whether the page itself scrolls sideways.
OUTSIDE = """(el) => { const r = el.getBoundingClientRect();
  let left = 0, right = window.innerWidth;
  for (let box = el.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== 'visible') {
      const b = box.getBoundingClientRect(); left = Math.max(left, b.left); right = Math.min(right, b.right);
    }
  }
  return Math.max(0, left - r.left) + Math.max(0, r.right - right); }"""
PAGE_SCROLLS_SIDEWAYS = "() => document.documentElement.scrollWidth > window.innerWidth"


def on_screen(locator) -> None:  # noqa: ANN001
    """Each element the locator finds is visible and within the viewport's width."""
    assert locator.count() > 0, locator
    for i in range(locator.count()):
        element = locator.nth(i)
        assert element.is_visible(), element
        assert element.evaluate(OUTSIDE) < 1, (element, element.evaluate(OUTSIDE))


def log_in(page, live_server, user) -> None:  # noqa: ANN001
    client = Client()
    client.force_login(user)
    page.context.clear_cookies()
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def _also_in_a_second_list(tournament) -> None:  # noqa: ANN001
    """The table rated in a second list too: a second change column."""
    second = RatingListFactory(name="Rivne club rating", slug="rivne-club", system="egf")
    ListTournament.objects.create(rating_list=second, tournament=tournament)
    for row in RatingHistory.objects.filter(tournament=tournament):
        row.pk, row.rating_list = None, second
        row.save()


@pytest.mark.parametrize("lists", [1, 2])
def test_phone_crosstable_shows_points_and_changes(
    live_server, browser_page, audit, screenshot, lists
):
    world = small_world()  # a six-player round robin over fifteen rounds, rated
    if lists == 2:
        _also_in_a_second_list(world.tournaments[0])
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/tournaments/{world.tournaments[0].pk}/")
    table = page.locator("table.crosstable")
    header = table.locator("thead th")
    on_screen(header.filter(has_text="Points"))
    on_screen(header.filter(has_text="Ukraine Go"))
    first = table.locator("tbody tr").first
    on_screen(first.locator("td.sticky-name"))
    on_screen(first.locator("td.points-cell"))
    assert first.locator("td.change-cell").count() == lists
    on_screen(first.locator("td.change-cell"))
    assert "+50.0" in first.locator("td.change-cell").first.inner_text()
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    screenshot(f"issue55-phone-crosstable-{lists}")
    # the rounds are one tap away, not gone
    page.get_by_text("Show the rounds").click()
    assert table.locator("tbody tr").first.locator("td.round-cell").first.is_visible()
    audit()


def test_phone_referee_queue_keeps_review_lists_and_decisions(
    live_server, browser_page, audit, screenshot
):
    setup = build()
    decided = TournamentFactory(organiser=setup.club, status="approved", name="Winter Cup")
    ListTournament.objects.create(
        rating_list=setup.rating_list, tournament=decided, decision="approved",
        decided_by=setup.user("referee"), decided_at=timezone.now() - dt.timedelta(days=1),
    )  # fmt: skip
    page = browser_page
    log_in(page, live_server, setup.user("referee"))
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/referee/")
    queue = page.locator("#queue tbody tr").first
    on_screen(queue.get_by_role("link", name="Review"))
    on_screen(queue.locator("td.lists-cell"))
    assert setup.rating_list.name in queue.locator("td.lists-cell").inner_text()
    badge = page.locator(".badge-decision-approved")
    on_screen(badge)
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    # finding 7: the badge is drawn (not white on transparent)
    colours = badge.evaluate(
        "(b) => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]"
    )
    assert colours[1] not in ("rgba(0, 0, 0, 0)", "transparent") and colours[0] != colours[1]
    screenshot("issue55-phone-queue")
    audit()


def test_phone_round_form_keeps_colour_one_word(live_server, browser_page, audit, screenshot):
    setup = build()
    page = browser_page
    log_in(page, live_server, setup.user("admin"))
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/manage/{setup.draft.pk}/rounds/1/")
    cell = page.locator("tr.board").first.locator("td[data-label='Colour']")
    # the label's own width against the cell's: "Colo/ur" was the label in a 1.75rem column
    label, room = cell.evaluate(
        """(td) => { const before = getComputedStyle(td, '::before');
          const probe = document.createElement('span');
          probe.textContent = td.dataset.label;
          probe.style.font = before.font;
          probe.style.whiteSpace = 'nowrap';
          probe.style.position = 'absolute';
          document.body.appendChild(probe);
          const wide = probe.getBoundingClientRect().width;
          probe.remove();
          return [wide, td.clientWidth]; }"""
    )
    assert label <= room, (label, room)
    on_screen(cell.locator("select"))
    screenshot("issue55-phone-round")
    audit()


def test_phone_walk_enter_a_round_submit_and_approve(live_server, browser_page, audit, screenshot):
    """At 390 px: the club admin enters round 2 and submits; the referee opens the table
    from the menu and the queue and approves it. Whatever a step needs is on screen."""
    setup = build()
    names = [member.full_name for member in setup.players]
    base, page = live_server.url, browser_page
    page.set_viewport_size(PHONE)

    log_in(page, live_server, setup.user("admin"))
    page.goto(f"{base}/manage/{setup.draft.pk}/rounds/2/")
    for n, (white, black) in enumerate(((names[0], names[2]), (names[1], names[3]))):
        prefix = f"#id_board-{n}-"
        for field in ("white", "black", "kind", "result", "handicap", "colour"):
            on_screen(page.locator(prefix + field))
        page.select_option(prefix + "white", label=white)
        page.select_option(prefix + "black", label=black)
        page.select_option(prefix + "result", value="white")
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    audit()
    save = page.get_by_role("button", name="Save round 2")
    on_screen(save)
    save.click()
    page.wait_for_load_state()
    on_screen(page.locator(".alert-success"))
    assert page.locator(".alert-success").inner_text().startswith("Round 2 is saved")
    overview = page.get_by_role("link", name="Overview")
    on_screen(overview)
    overview.click()
    submit = page.locator("#submit-table")
    on_screen(submit)
    audit()
    submit.click()
    page.wait_for_load_state()
    assert page.locator("[data-status]").first.get_attribute("data-status") == "submitted"

    log_in(page, live_server, setup.user("referee"))
    page.goto(f"{base}/")
    page.get_by_role("button", name="Menu").click()
    queue_link = page.get_by_role("link", name="Referee queue")
    queue_link.wait_for()
    on_screen(queue_link)
    queue_link.click()
    review = (
        page.locator("#queue tbody tr")
        .filter(has_text=setup.draft.name)
        .get_by_role("link", name="Review")
    )
    on_screen(review)
    review.click()
    page.wait_for_url(f"**/referee/{setup.draft.pk}/")
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    for needed in ("#decision-form textarea", "#decision-form input[name=lists]"):
        on_screen(page.locator(needed))
    approve = page.locator("#decision-form").get_by_role("button", name="Approve")
    on_screen(approve)
    screenshot("issue55-phone-review")
    audit()
    approve.click()
    page.wait_for_load_state()
    page.locator("#recompute-status [data-rated]").wait_for(timeout=20_000)
    on_screen(page.locator("#recompute-status"))
    audit()
