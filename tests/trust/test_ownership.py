"""Issue 14, holes 1 and 2: a club admin changes only his own club's members; for anyone
else a file or a form proposes, the member's club admin accepts it (issue 54: no longer
the referee's approval), the history keeps it."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.models import FideRating, Member
from tests.factories import ParticipantFactory, TournamentFactory
from tests.trust.world import rivne_member, trf, upload
from tournaments.models import MemberProposal
from tournaments.review.proposals import proposal_decide, proposal_record, proposals_for_review

pytestmark = pytest.mark.django_db

GM_FILE = (("Bondar, Oleh", "GM", "14109999", "1990"), ("Kovalenko, Ivan", "", "", ""))


def _identity(member: Member) -> tuple:
    member.refresh_from_db()
    return (member.fide_id, member.fide_title, member.federation, member.birth_year)


def _fide_ratings(member: Member) -> tuple:
    member.refresh_from_db()
    return member.fide_rating, list(member.fide_ratings.values_list("rating", "valid_from"))


def test_hole_1_an_import_by_another_club_changes_nothing_on_a_draft(world):
    oleh = rivne_member(family_name="Bondar", given_name="Oleh", birth_date=None)
    before = _identity(oleh)
    ratings_before = _fide_ratings(oleh)
    kyiv = world.client("kyiv-admin")
    draft = upload(kyiv, trf(*GM_FILE), "open.trf", world.kyiv, world.lists["chess"])
    assert draft is not None and draft.status == "draft"
    assert draft.participants.filter(member=oleh).exists()  # matched by name
    assert _identity(oleh) == before == ("", "", "", None)
    # the file's FIDE rating (2400) is not his on a draft: it would seed his ORR start
    assert _fide_ratings(oleh) == ratings_before == (None, [])
    api = json.loads(kyiv.get(reverse("api_player", args=[oleh.pk])).content)
    assert api["fide_id"] is None
    assert "14109999" not in kyiv.get(reverse("player_detail", args=[oleh.pk])).content.decode()
    proposed = dict(
        MemberProposal.objects.filter(tournament=draft, member=oleh).values_list("field", "value")
    )
    assert proposed == {
        "fide_id": "14109999", "fide_title": "GM", "federation": "UKR", "birth_year": "1990",
        "fide_rating": "2400",
    }  # fmt: skip
    # abandoning the draft drops what it proposed
    assert kyiv.post(reverse("manage_delete", args=[draft.pk])).status_code == 302
    assert not MemberProposal.objects.exists()
    assert _identity(oleh) == before
    assert _fide_ratings(oleh) == ratings_before


def test_hole_1_the_referee_approves_his_club_admin_accepts_the_history_shows_it(world):
    oleh = rivne_member(family_name="Bondar", given_name="Oleh", birth_date=None)
    table = upload(world.client("kyiv-admin"), trf(*GM_FILE), "open.trf", world.kyiv,
                   world.lists["chess"], status="submitted")  # fmt: skip
    assert _identity(oleh) == ("", "", "", None)
    referee = world.client("chess-referee")
    review = referee.get(reverse("referee_review", args=[table.pk])).content.decode()
    assert 'id="proposals"' in review and "14109999" in review and "Bondar" in review
    referee.post(reverse("referee_decide", args=[table.pk]), {"decision": "approve"})
    assert _identity(oleh) == ("", "", "", None)  # issue 54: not the referee's to apply
    rivne = world.client("rivne-admin")
    for proposal in rivne.get(reverse("proposal_inbox")).context["proposals"]:
        rivne.post(reverse("proposal_decide", args=[proposal.pk]), {"decision": "accept"})
    assert _identity(oleh) == ("14109999", "GM", "UKR", 1990)
    # his FIDE rating is kept valid from the table's start (issue 20)
    assert _fide_ratings(oleh) == (2400, [(2400, table.start_date)])
    # his club's admin and staff see who changed what and why; others do not
    url = reverse("member_history", args=[oleh.pk])
    for who in ("rivne-admin", "staff"):
        page = world.client(who).get(url)
        assert page.status_code == 200
        html = page.content.decode()
        assert "14109999" in html and "rivne-admin" in html and "kyiv-admin" in html
        assert f"#{table.pk}" in html
    for who in ("kyiv-admin", "player", "chess-referee"):
        assert world.client(who).get(url).status_code == 403
    change = oleh.history.filter(history_change_reason__startswith="FIDE ID ").latest(
        "history_date"
    )  # one history row each proposal accepted
    assert change.history_user.username == "rivne-admin"
    assert change.prev_record.fide_id == "" and change.fide_id == "14109999"


def test_hole_2_a_club_admin_cannot_add_to_another_clubs_roster(world):
    kyiv = world.client("kyiv-admin")
    tournament = TournamentFactory(organiser=world.kyiv, status="draft")
    url = reverse("manage_participants", args=[tournament.pk])
    response = kyiv.post(url, {"action": "create", "family_name": "Shevchuk",
                               "given_name": "Sofia", "grade": "25k", "club": world.rivne.pk})  # fmt: skip
    assert response.status_code == 200  # the form refuses the club
    assert "club" in response.context["create"].errors
    assert not Member.objects.filter(family_name="Shevchuk").exists()
    assert "Shevchuk" not in world.client("player").get("/clubs/rivne-go/").content.decode()
    # his own club, or none, he may
    kyiv.post(url, {"action": "create", "family_name": "Shevchuk", "given_name": "Sofia",
                    "grade": "25k", "club": world.kyiv.pk, "confirm_new": "1"})  # fmt: skip
    assert Member.objects.get(family_name="Shevchuk").club == world.kyiv


def test_hole_2_an_import_proposes_the_club_a_file_names(world):
    document = {
        "system": "egf",
        "event": {"id": "kyiv-cup", "name": "Kyiv Cup", "date": "2024-05-01", "class": "A"},
        "players": [
            {"id": "p1", "name": "Newman Petro", "grade": "5k", "club": "Rivne Go Club"},
            {"id": "p2", "name": "Oldman Ivan", "grade": "6k", "club": "Kyiv Go Club"},
        ],
        "games": [{"round": 1, "white": "p1", "black": "p2", "result": "white", "handicap": 0}],
    }
    kyiv = world.client("kyiv-admin")
    table = upload(kyiv, json.dumps(document).encode(), "cup.json", world.kyiv, None, fmt="json")
    assert table is not None
    petro = Member.objects.get(family_name="Newman")
    assert petro.club is None  # not on Rivne's roster
    assert "Newman" not in Client().get("/clubs/rivne-go/").content.decode()
    proposal = MemberProposal.objects.get(member=petro)
    assert (proposal.field, proposal.value) == ("club", str(world.rivne.pk))
    assert Member.objects.get(family_name="Oldman").club == world.kyiv  # his own club
    # EGD writes the club without spaces: it is matched all the same
    egd = b"; CL[A]\n; EV[Kyiv Cup 2]\n; DT[2024-05-02]\n1 Newer Olha 5k UA Rivne_Go_Club 1 2+/w\n2 Older Ira 6k UA Kyiv_Go_Club 0 1-/b\n"
    upload(kyiv, egd, "cup.h9", world.kyiv, None, fmt="egd")
    assert Member.objects.get(family_name="Newer").club is None
    assert Member.objects.get(family_name="Older").club == world.kyiv


def test_own_member_is_corrected_at_once_another_clubs_is_proposed(world):
    tournament = TournamentFactory(organiser=world.kyiv, status="draft")
    ours = ParticipantFactory(tournament=tournament, member__club=world.kyiv).member
    theirs = ParticipantFactory(tournament=tournament, member__club=world.rivne).member
    kyiv = world.client("kyiv-admin")
    for member in (ours, theirs):
        url = reverse("manage_member_identity", args=[tournament.pk, member.pk])
        assert kyiv.get(url).status_code == 200
        kyiv.post(url, {"fide_id": "777", "egd_pin": "", "fide_title": "", "federation": "",
                        "birth_year": "", "grade": "10k", "club": member.club_id})  # fmt: skip
    assert Member.objects.get(pk=ours.pk).fide_id == "777"
    assert Member.objects.get(pk=theirs.pk).fide_id == ""
    assert MemberProposal.objects.get(member=theirs).value == "777"
    assert ours.history.latest("history_date").history_user.username == "kyiv-admin"
    # a player not in his table is not his to open
    other = TournamentFactory(organiser=world.rivne, status="draft")
    url = reverse("manage_member_identity", args=[other.pk, theirs.pk])
    assert kyiv.get(url).status_code == 403


def test_a_files_fide_rating_waits_for_approval_unless_already_on_record(world):
    """Issue 20 keeps a FIDE rating with the day it became valid; a file's rating of a
    member already here is proposed like his identity (a draft must not seed his ORR
    start), and nothing is proposed when his record already holds it from that day."""
    oleh = rivne_member(family_name="Bondar", given_name="Oleh", birth_date=None)
    ivan = rivne_member(family_name="Kovalenko", given_name="Ivan", birth_date=None)
    start = dt.date(2024, 5, 1)  # the file's first day
    FideRating.objects.create(member=ivan, rating=2400, valid_from=start)
    FideRating.objects.create(member=oleh, rating=2300, valid_from=dt.date(2024, 1, 1))
    draft = upload(world.client("kyiv-admin"), trf(*GM_FILE), "open.trf", world.kyiv,
                   world.lists["chess"])  # fmt: skip
    proposed = MemberProposal.objects.filter(tournament=draft, field="fide_rating")
    assert list(proposed.values_list("member_id", "value")) == [(oleh.pk, "2400")]
    assert _fide_ratings(oleh) == (None, [(2300, dt.date(2024, 1, 1))])
    review = proposals_for_review(draft)
    change = next(c for c in review if c.proposal.field == "fide_rating")
    assert (change.field_label, change.before, change.after) == ("FIDE rating", "—", "2400")
    staff = world.users["staff"]
    for proposal in MemberProposal.objects.filter(tournament=draft):
        proposal_decide(proposal=proposal, by=staff, accept=True)
    assert _fide_ratings(oleh) == (2400, [(2300, dt.date(2024, 1, 1)), (2400, start)])
    assert _fide_ratings(ivan) == (None, [(2400, start)])  # nothing proposed, nothing moved


def test_the_review_reads_the_fide_ratings_on_record_in_one_query(world):
    """A TRF of a hundred known players proposes a hundred ratings: the referee's review
    must not read the record once for each."""
    tournament = TournamentFactory(organiser=world.kyiv, status="draft")

    def queries_for(count: int) -> int:
        for number in range(count):
            member = rivne_member(family_name=f"Rated{count}x{number}")
            FideRating.objects.create(member=member, rating=2000, valid_from=dt.date(2020, 1, 1))
            proposal_record(tournament=tournament, member=member, field="fide_rating",
                            value=2100 + number, by=None)  # fmt: skip
        with CaptureQueriesContext(connection) as queries:
            changes = proposals_for_review(tournament)
        assert sum(c.proposal.field == "fide_rating" for c in changes) >= count
        assert all(c.before == "—" for c in changes)  # none on record from its start
        return len(queries)

    assert queries_for(2) == queries_for(10)
