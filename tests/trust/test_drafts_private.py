"""Issue 14, hole 5: a draft is its club's private work — no public page, profile section,
API, CSV, search or another club's import hint shows it."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.trust.world import rivne_member, upload
from tournaments.models import Participant

pytestmark = pytest.mark.django_db

NINE_PRO = (
    b"; CL[A]\n; EV[Secret Kyiv Cup]\n; DT[2024-05-01,2024-05-01]\n"
    b"1 Bondar Oleh 9p UA Rivne 1 2+/w\n"
    b"2 Kovalenko Ivan 6k UA Kyiv 0 1-/b\n"
)


def _draft(world, who="kyiv-admin", club=None):
    oleh = rivne_member(family_name="Bondar", given_name="Oleh", grade="3k")
    draft = upload(world.client(who), NINE_PRO, "secret.h9", club or world.kyiv, None,
                   choices={"choice-0": str(oleh.pk)}, fmt="egd")  # fmt: skip
    assert draft is not None and draft.status == "draft"
    assert str(Participant.objects.get(tournament=draft, member=oleh).grade) == "9p"
    return oleh, draft


def test_hole_5_a_drafts_grade_is_on_no_public_profile(world):
    oleh, draft = _draft(world)
    public = Client()
    profile = public.get(reverse("player_detail", args=[oleh.pk])).content.decode()
    assert "Secret Kyiv Cup" not in profile and "9p" not in profile
    assert public.get(reverse("tournament_detail", args=[draft.pk])).status_code == 404
    api = public.get(reverse("api_player", args=[oleh.pk])).content.decode()
    assert "Secret" not in api and "9p" not in api
    assert public.get(reverse("api_tournament", args=[draft.pk])).status_code == 404
    found = public.get(reverse("tournament_list"), {"q": "Secret"}).content.decode()
    assert "Secret Kyiv Cup" not in found
    assert "Secret" not in public.get("/clubs/kyiv-go/").content.decode()
    for rating_list in world.lists.values():
        csv = public.get(reverse("rating_list_csv", args=[rating_list.slug])).content.decode()
        assert "Bondar" not in csv
    # once submitted it is public, and so is the grade he played at
    draft.status = "submitted"
    draft.save()
    profile = public.get(reverse("player_detail", args=[oleh.pk])).content.decode()
    assert "Secret Kyiv Cup" in profile and "9p" in profile


def test_hole_5_another_clubs_import_hint_names_no_draft(world):
    _oleh, draft = _draft(world)
    rivne = world.client("rivne-admin")
    from django.core.files.uploadedfile import SimpleUploadedFile

    def warnings() -> list[str]:
        form = {"file": SimpleUploadedFile("again.h9", NINE_PRO), "organiser": world.rivne.pk,
                "rating_list": "", "fmt": "egd"}  # fmt: skip
        preview = rivne.post(reverse("manage_import"), form).context["preview"]
        return [w.message for w in preview.warnings]

    assert not [w for w in warnings() if "already here" in w]
    draft.status = "submitted"
    draft.save()
    hint = [w for w in warnings() if "already here" in w]
    assert len(hint) == 1 and "similar public tournament" in hint[0]
    assert "Secret" not in hint[0] and f"#{draft.pk}" not in hint[0]
    # the club's own admin sees his own table named
    kyiv = world.client("kyiv-admin")
    form = {"file": SimpleUploadedFile("again.h9", NINE_PRO), "organiser": world.kyiv.pk,
            "rating_list": "", "fmt": "egd"}  # fmt: skip
    own = [w.message for w in kyiv.post(reverse("manage_import"), form).context["preview"].warnings]
    assert any(f"#{draft.pk}" in w for w in own)
    assert json.loads(Client().get(reverse("api_tournament", args=[draft.pk])).content)["id"]
