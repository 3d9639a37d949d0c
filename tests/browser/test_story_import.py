"""Importing a results file in Chromium: upload, problems by line, preview, confirm."""

from __future__ import annotations

import pytest

from tests.browser.test_story import log_in
from tests.factories import MemberFactory
from tests.web.manage_data import FAST_HASHERS, build
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLE = (
    "; EV[Lutsk Rapid]\n; PC[UA, Lutsk]\n; DT[2024-05-01,2024-05-02]\n; CL[B]\n; KM[6.5]\n"
    "1 Kovalenko Ivan        3d UA Rivn  2  2+/w  3+/b\n"
    "2 Shevchenko Olena      1k UA Kyiv  1  1-/b  0+\n"
    "3 Bondar Taras         10k UA Rivn  0  0-    1-/w\n"
)


def test_upload_preview_confirm(live_server, browser_page, screenshot, audit, settings, tmp_path):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    setup = build()
    known = MemberFactory(family_name="Kovalenko", given_name="Ivan", club=setup.club)
    page = browser_page
    log_in(page, live_server.url, "admin", "/manage/import/")
    broken = tmp_path / "broken.h9"
    broken.write_text(TABLE.replace("2+/w  3+/b", "2+/w  9+/b"))
    page.set_input_files("#id_file", str(broken))
    page.get_by_role("button", name="Upload and preview").click()
    page.wait_for_load_state()
    assert "6" in page.locator("#file-problems tbody td.num").first.inner_text()
    audit()
    screenshot("import-problems")

    good = tmp_path / "lutsk.h9"
    good.write_text(TABLE)
    page.set_input_files("#id_file", str(good))
    page.select_option("#id_rating_list", label="Ukraine EGF")
    page.get_by_role("button", name="Upload and preview").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Lutsk Rapid"
    assert not Tournament.objects.filter(name="Lutsk Rapid").exists()
    page.select_option("select[name=choice-0]", value=str(known.pk))
    audit()
    screenshot("import-preview")
    page.get_by_role("button", name="Save the tournament").click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Lutsk Rapid")
    assert page.url.endswith(f"/manage/{tournament.pk}/")
    assert tournament.participants.filter(member=known).exists()
    assert page.locator("table.crosstable tbody tr").count() == 3
