"""Issue 55, finding 8: the merge page. A profile links to it, the other member is found
the way the site search finds him (a name in any spelling, a PIN), the comparison shows
grade, tables, games and ratings, a merge asks for confirmation, and the dropped member's
address then leads to the kept one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Member, Registrar
from ratings.models import RatingEntry
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    ParticipantFactory,
    RatingListFactory,
    TournamentFactory,
    UserFactory,
)
from tests.web.manage_data import FAST_HASHERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def registrar(settings) -> Client:
    settings.PASSWORD_HASHERS = FAST_HASHERS
    user = UserFactory(username="registrar")
    Registrar.objects.create(user=user)  # the whole site
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def pair() -> tuple[Member, Member]:
    club = ClubFactory(name="Kyiv Go Club", country="UA")
    keep = MemberFactory(club=club, family_name="Shevchuk", given_name="Taras", grade="3k",
                         country="UA", egd_pin="12345678")  # fmt: skip
    drop = MemberFactory(club=None, family_name="Шевчук", given_name="Тарас", grade="2k",
                         country="UA")  # fmt: skip
    table = TournamentFactory(organiser=club, status="approved", rounds=1)
    opponent = MemberFactory(club=club, grade="5k")
    for member in (drop, opponent):
        ParticipantFactory(tournament=table, member=member)
    GameFactory(tournament=table, round=1, white=drop, black=opponent)
    RatingEntry.objects.create(
        rating_list=RatingListFactory(name="UFGO list", system="ufgo"), member=drop, rating=1876
    )
    return keep, drop


def test_the_profile_links_to_the_merge_page(registrar, pair):
    keep, _drop = pair
    page = registrar.get(reverse("player_detail", args=[keep.pk])).content.decode()
    assert f'href="{reverse("member_merge", args=[keep.pk])}"' in page


def test_the_other_member_is_found_by_name_in_another_script_and_compared(registrar, pair):
    keep, drop = pair
    url = reverse("member_merge", args=[keep.pk])
    page = registrar.get(url, {"other": "Шевчук"}).content.decode()
    compare = page.split('id="merge-compare"', 1)[1].split('id="merge-form"', 1)[0]
    # both sides, each with his grade, tables, games and each list's rating
    assert f"#{keep.pk}" in compare and f"#{drop.pk}" in compare
    assert "3k" in compare and "2k" in compare
    assert "UFGO list: 1876" in compare
    assert "12345678" in compare
    drop_side = compare.split(f"#{drop.pk}", 1)[1]
    assert '<dt class="col-5">Tournaments</dt><dd class="col-7">1</dd>' in drop_side
    assert '<dt class="col-5">Games</dt><dd class="col-7">1</dd>' in drop_side


def test_a_pin_or_a_name_several_share_is_offered_to_choose(registrar, pair):
    keep, drop = pair
    other = MemberFactory(family_name="Shevchuk", given_name="Taras", grade="10k")
    url = reverse("member_merge", args=[keep.pk])
    page = registrar.get(url, {"other": "Shevchuk Taras"}).content.decode()
    found = page.split('id="merge-found"', 1)[1].split("</div>", 1)[0]
    assert f"?other={drop.pk}" in found and f"?other={other.pk}" in found
    assert f"?other={keep.pk}" not in found  # not himself
    nobody = registrar.get(url, {"other": "Zzyzx"}).content.decode()
    assert "Nobody else matches." in nobody


def test_a_merge_asks_for_confirmation_then_the_old_address_leads_to_the_kept(registrar, pair):
    keep, drop = pair
    url = reverse("member_merge", args=[keep.pk])
    unconfirmed = registrar.post(url, {"other": drop.pk, "keep": keep.pk}, follow=True)
    assert "Tick the box to confirm that they are one person." in unconfirmed.content.decode()
    assert Member.objects.filter(pk=drop.pk).exists()  # nothing merged
    done = registrar.post(url, {"other": drop.pk, "keep": keep.pk, "confirm": "1"})
    assert done.status_code == 302 and not Member.objects.filter(pk=drop.pk).exists()
    old = Client().get(reverse("player_detail", args=[drop.pk]))
    assert old.status_code == 302 and old["Location"] == reverse("player_detail", args=[keep.pk])


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_confirmation_in_every_language(registrar, pair, language):
    keep, drop = pair
    url = reverse("member_merge", args=[keep.pk])
    page = registrar.get(url, {"other": drop.pk}, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    words = {"uk": "це одна людина", "ru": "это один человек"}[language]
    assert words in page
