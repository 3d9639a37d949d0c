"""Issue 15 in Chromium: a list's referee starts his list from a published list. He uploads
a small CSV, reads the preview (matched / new / ambiguous), is refused until he settles the
ambiguous row, settles it, confirms, and the list page shows the players at the ratings
the file gave them."""

from __future__ import annotations

import pytest

from clubsite.models import Member
from ratings.models import Baseline, BaselineRow, RatingEntry
from tests.browser.test_story import log_in
from tests.factories import ClubFactory, MemberFactory, RatingListFactory, UserFactory
from tests.web.manage_data import FAST_HASHERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIST = (
    "key,family_name,given_name,country,club,rating\n"
    "ua-1,Шмельов,Олег,UA,Rivne Go Club,1834\n"  # the member Oleh Shmelyov, by name
    "ua-2,Petrenko,Ivan,UA,,1500\n"  # two Ivan Petrenkos: the referee chooses
    "ua-3,Kovalenko,Iryna,UA,Rivne Go Club,1421\n"  # nobody: a new member
)


def test_a_referee_starts_his_list_from_a_published_list(
    live_server, browser_page, screenshot, audit, settings
):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    rivne = ClubFactory(name="Rivne Go Club", slug="ua-rivne-go-club", country="UA")
    rating_list = RatingListFactory(name="Club ratings", slug="club", system="uscf", game="chess")
    rating_list.referees.add(UserFactory(username="club-referee"))
    oleh = MemberFactory(family_name="Shmelyov", given_name="Oleh", country="UA", club=rivne)
    twins = [
        MemberFactory(family_name="Petrenko", given_name="Ivan", country="UA", club=None)
        for _ in range(2)
    ]
    base, page = live_server.url, browser_page

    log_in(page, base, "club-referee", "/ratings/club/baseline/")
    assert page.locator("h1").inner_text() == "Start this list from a published list"
    page.set_input_files(
        "#id_file", files=[{"name": "club.csv", "mimeType": "text/csv", "buffer": LIST.encode()}]
    )
    page.select_option("#id_fmt", "csv")
    page.fill("#id_date", "2024-01-01")
    page.get_by_role("button", name="Upload and preview").click()

    # --- the preview: one row each way, nothing saved yet
    summary = page.locator("#baseline-summary")
    assert summary.inner_text() == "1 matched, 1 new, 1 ambiguous"
    assert f"#{oleh.pk} Oleh Shmelyov" in page.locator("tr.match-matched").inner_text()
    assert "new member" in page.locator("tr.match-new").inner_text()
    choice = page.locator("tr.match-ambiguous select")
    options = choice.locator("option").all_inner_texts()
    assert [f"#{t.pk} Ivan Petrenko" for t in twins] == options[1:3]
    audit()
    screenshot("baseline-preview")
    assert not Baseline.objects.exists()

    # --- confirming with the ambiguous row unsettled is refused, and says why
    page.get_by_role("button", name="Confirm and start the list from it").click()
    page.wait_for_load_state()
    assert "choose one" in page.locator("#baseline-errors").inner_text()
    assert not Baseline.objects.exists()

    # --- settled: the second Ivan Petrenko
    page.locator("tr.match-ambiguous select").select_option(str(twins[1].pk))
    page.get_by_role("button", name="Confirm and start the list from it").click()
    page.wait_for_url(f"{base}/ratings/club/")
    assert "starts from 3 players on" in page.locator("body").inner_text()
    audit()
    screenshot("baseline-applied")

    iryna = Member.objects.get(family_name="Kovalenko", given_name="Iryna")
    assert iryna.club == rivne and iryna.import_key == "ua-3"
    rows = dict(BaselineRow.objects.values_list("member_id", "rating"))
    assert rows == {oleh.pk: 1834.0, twins[1].pk: 1500.0, iryna.pk: 1421.0}
    entries = dict(
        RatingEntry.objects.filter(rating_list=rating_list).values_list("member_id", "rating")
    )
    assert entries == rows  # the recompute ran: each starts where the file put him
    table = page.locator("table").first.inner_text()
    for name in ("Oleh Shmelyov", "Ivan Petrenko", "Iryna Kovalenko"):
        assert name in table
    assert "1834" in table and "1421" in table
