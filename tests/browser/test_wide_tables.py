"""Wide crosstables at a laptop's 1366×768: they scroll inside their box with a visible
cue (a fade on the side with more), and place and name stay put while scrolling."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _wide_tournament() -> Tournament:
    club = ClubFactory(name="Kyiv Go Club “Tengen” and Friends of the Game")
    players = [
        MemberFactory(given_name=f"Oleksandra{i}", family_name=f"Shevchenko-Kovalenko{i}", club=club)
        for i in range(14)
    ]  # fmt: skip
    tournament = TournamentFactory(status=Tournament.Status.APPROVED, rounds=13, organiser=club)
    for place, member in enumerate(players, start=1):
        ParticipantFactory(tournament=tournament, member=member, place=place)
    # a round robin by the circle method: 13 rounds of 7 boards
    ids = list(range(14))
    for round_number in range(1, 14):
        for board in range(7):
            white, black = players[ids[board]], players[ids[13 - board]]
            Game.objects.create(tournament=tournament, round=round_number, white=white,
                                black=black, result=Game.Result.WHITE)  # fmt: skip
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return tournament


def test_wide_crosstable_scrolls_with_a_cue_and_sticky_names(
    live_server, browser_page, screenshot, audit
):
    tournament = _wide_tournament()
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    box = page.locator("[data-scroll-cue]")
    wrap = box.locator(".table-wrap")
    assert wrap.evaluate("(w) => w.scrollWidth > w.clientWidth")
    page.wait_for_function(
        "() => document.querySelector('[data-scroll-cue]').classList.contains('more-right')"
    )
    assert page.locator(".scroll-hint").is_visible()
    audit()
    screenshot("wide-crosstable-1366")

    name = page.locator("table.crosstable tbody tr").first.locator("td.sticky-name")
    before = name.bounding_box()
    wrap.evaluate("(w) => { w.scrollLeft = w.scrollWidth; }")
    page.wait_for_function(
        "() => document.querySelector('[data-scroll-cue]').classList.contains('more-left')"
    )
    after = name.bounding_box()
    assert abs(after["x"] - before["x"]) < 1  # the name stayed put
    assert "more-right" not in (box.get_attribute("class") or "")
    audit()
    screenshot("wide-crosstable-1366-scrolled")
    # the page itself does not scroll sideways
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
