"""`url_prefix`: a page's URL up to its id, for rows drawn by the hundred."""

from __future__ import annotations

from django.urls import reverse

from clubsite.views.url_prefix import url_prefix


def test_a_prefix_and_an_id_make_the_pages_url():
    assert url_prefix("player_detail") + "42/" == reverse("player_detail", args=[42])
    assert url_prefix("club_detail") + "kyiv-go/" == reverse("club_detail", args=["kyiv-go"])
    assert url_prefix("player_breakdown", 7) + "9/" == reverse("player_breakdown", args=[7, 9])
