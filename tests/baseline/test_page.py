"""The page "Start this list from a published list": upload, preview, settle, confirm."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.models import Member
from ratings.models import Baseline, BaselineRow
from tests.factories import MemberFactory, RatingListFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
CSV = "key,family_name,given_name,country,rating\nr1,Petrenko,Ivan,UA,1500\nr2,Іваненко,Олена,UA,1700\n"


def test_referee_uploads_settles_the_ambiguous_row_and_confirms(client) -> None:
    referee = UserFactory(username="ref")
    rating_list = RatingListFactory(system="uscf", game="chess", slug="club")
    rating_list.referees.add(referee)
    twins = [
        MemberFactory(family_name="Petrenko", given_name="Ivan", country="UA") for _ in range(2)
    ]
    client.force_login(referee)
    url = reverse("list_baseline", args=["club"])
    upload = SimpleUploadedFile("list.csv", CSV.encode())
    page = client.post(url, {"file": upload, "fmt": "csv", "date": "2024-01-01"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "0 matched, 1 new, 1 ambiguous" in text and f"#{twins[0].pk} Ivan Petrenko" in text
    token = page.context["token"]
    refused = client.post(url, {"token": token})
    assert "choose one" in refused.content.decode() and not Baseline.objects.exists()
    done = client.post(url, {"token": token, "choice-r1": str(twins[1].pk)})
    assert done.status_code == 302
    rows = dict(BaselineRow.objects.values_list("member_id", "rating"))
    olena = Member.objects.get(family_name="Іваненко")
    assert rows == {twins[1].pk: 1500.0, olena.pk: 1700.0}


def test_a_referee_of_another_list_is_refused(client) -> None:
    RatingListFactory(slug="mine")
    other = RatingListFactory(slug="theirs")
    referee = UserFactory()
    other.referees.add(referee)
    client.force_login(referee)
    assert client.get(reverse("list_baseline", args=["mine"])).status_code == 403
    assert client.get(reverse("list_baseline", args=["theirs"])).status_code == 200


def test_the_list_page_links_the_baseline_page_for_its_referees_and_staff_only(client) -> None:
    RatingListFactory(slug="mine")
    other = RatingListFactory(slug="theirs")
    referee = UserFactory()
    other.referees.add(referee)
    link = reverse("list_baseline", args=["theirs"])
    assert link not in client.get(reverse("rating_list", args=["theirs"])).content.decode()
    client.force_login(referee)
    assert link in client.get(reverse("rating_list", args=["theirs"])).content.decode()
    mine = client.get(reverse("rating_list", args=["mine"])).content.decode()
    assert reverse("list_baseline", args=["mine"]) not in mine
    client.force_login(UserFactory(is_staff=True))
    assert (
        reverse("list_baseline", args=["mine"])
        in client.get(reverse("rating_list", args=["mine"])).content.decode()
    )
