""" "This is me" (issue 56): a signed-in user asks to be linked to a member, the member's
club admin (or staff) confirms or refuses, and "my profile" then leads to his ratings;
nobody else decides, and a request is refused where it cannot stand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubsite.models import Member, MemberClaim
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting():
    club = ClubFactory()
    member = MemberFactory(family_name="Hnatyuk", given_name="Oleh", club=club)
    admin = UserFactory(username="club-admin")
    club.admins.add(admin)
    other_admin = UserFactory(username="other-admin")
    ClubFactory().admins.add(other_admin)
    return {
        "member": member, "admin": admin, "other_admin": other_admin,
        "player": UserFactory(username="oleh"), "staff": UserFactory(username="staff", is_staff=True),
    }  # fmt: skip


def _ask(client, user, member):
    client.force_login(user)
    return client.post(reverse("member_claim", args=[member.pk]), follow=True)


def test_asked_then_confirmed_by_his_club_admin(client, setting):
    member, player = setting["member"], setting["player"]
    page = client.get(reverse("player_detail", args=[member.pk])).content.decode()
    assert 'data-testid="this-is-me"' not in page  # signed out: no button
    client.force_login(player)
    page = client.get(reverse("player_detail", args=[member.pk])).content.decode()
    assert 'data-testid="this-is-me"' in page
    response = _ask(client, player, member)
    assert "will confirm" in response.content.decode()
    claim = MemberClaim.objects.get()
    assert (claim.user, claim.member, claim.state) == (player, member, "pending")
    profile = client.get(reverse("my_profile")).content.decode()
    assert 'data-testid="claim-pending"' in profile and "Oleh Hnatyuk" in profile

    again = _ask(client, player, member).content.decode()
    assert "asked already" in again and MemberClaim.objects.count() == 1

    client.force_login(setting["admin"])
    assert 'data-testid="claims-to-decide"' in client.get(reverse("my_profile")).content.decode()
    listed = client.get(reverse("member_claims")).content.decode()
    assert "oleh" in listed and "Oleh Hnatyuk" in listed
    client.post(reverse("member_claims"), {"claim": claim.pk, "decision": "confirm"})
    claim.refresh_from_db()
    member.refresh_from_db()
    assert claim.state == "confirmed" and claim.decided_by == setting["admin"]
    assert member.user == player

    client.force_login(player)
    profile = client.get(reverse("my_profile")).content.decode()
    assert f'href="{reverse("player_detail", args=[member.pk])}"' in profile
    assert 'data-testid="claim-pending"' not in profile


def test_only_his_club_admin_or_staff_decides(client, setting):
    member = setting["member"]
    _ask(client, setting["player"], member)
    claim = MemberClaim.objects.get()
    client.force_login(setting["other_admin"])
    assert "Oleh Hnatyuk" not in client.get(reverse("member_claims")).content.decode()
    response = client.post(reverse("member_claims"), {"claim": claim.pk, "decision": "confirm"})
    assert response.status_code == 403
    client.force_login(setting["player"])  # not even for himself
    response = client.post(reverse("member_claims"), {"claim": claim.pk, "decision": "confirm"})
    assert response.status_code == 403
    claim.refresh_from_db()
    assert claim.state == "pending" and Member.objects.get(pk=member.pk).user is None

    client.force_login(setting["staff"])
    client.post(reverse("member_claims"), {"claim": claim.pk, "decision": "refuse"})
    claim.refresh_from_db()
    assert claim.state == "refused" and Member.objects.get(pk=member.pk).user is None
    # decided once: a second decision changes nothing
    page = client.post(
        reverse("member_claims"), {"claim": claim.pk, "decision": "confirm"}, follow=True
    ).content.decode()
    assert "decided already" in page and Member.objects.get(pk=member.pk).user is None


def test_requests_that_cannot_stand(client, setting):
    member, player = setting["member"], setting["player"]
    # signed out: to the login page, nothing asked; GET does nothing
    response = client.post(reverse("member_claim", args=[member.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(player)
    assert client.get(reverse("member_claim", args=[member.pk])).status_code == 405
    assert not MemberClaim.objects.exists()
    # a player already linked to another account
    taken = MemberFactory(user=UserFactory())
    assert "already linked" in _ask(client, player, taken).content.decode()
    # an account already linked to a player
    linked = UserFactory()
    MemberFactory(user=linked)
    assert "already linked" in _ask(client, linked, member).content.decode()
    assert not MemberClaim.objects.exists()
    client.force_login(setting["admin"])
    for junk in ("abc", "", "99999999999999999999999", "-1"):
        response = client.post(reverse("member_claims"), {"claim": junk, "decision": "confirm"})
        assert response.status_code == 404
    assert client.post(reverse("member_claims"), {"decision": "maybe"}).status_code == 404
