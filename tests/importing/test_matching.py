"""Who a file player is: PIN, FIDE ID, import key, member id, then exact name."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubsite.models import Member
from ratings.submissions.importing import results_import, results_preview
from ratings.submissions.services import tournament_approve_and_rate
from tests.factories import ClubFactory, MemberFactory, RatingListFactory, UserFactory
from tournaments.formats.model import FileGame, FilePlayer, ResultsFile, TournamentDetails
from tournaments.models import MemberProposal, Participant, Tournament
from tournaments.review.proposals import proposal_decide

pytestmark = pytest.mark.django_db


def _file(*players: FilePlayer, date=None) -> ResultsFile:
    import datetime as dt

    keys = [p.key for p in players]
    games = tuple(FileGame(1, keys[i], keys[i + 1], "white") for i in range(0, len(keys) - 1, 2))
    return ResultsFile(
        TournamentDetails(name="Test Cup", end_date=date or dt.date(2024, 5, 1), rounds=1),
        players,
        games,
    )


def _statuses(preview) -> dict[str, tuple[str, int | None, str]]:
    return {
        m.key: (m.status, m.member.pk if m.member else None, m.matched_by) for m in preview.players
    }


def test_pin_fide_key_and_name_each_find_the_member():
    club = ClubFactory(name="Rivne Go Club")
    by_pin = MemberFactory(family_name="Pinned", given_name="Petro", egd_pin="12345678")
    by_fide = MemberFactory(family_name="Fided", given_name="Olga", fide_id="4100018")
    by_name = MemberFactory(family_name="Named", given_name="Ivan", country="UA", club=club)
    results = _file(
        FilePlayer("1", "Someone", "Else", grade="3k", country="UA", egd_pin="12345678"),
        FilePlayer("2", "Other", "Name", fide_id="4100018"),
        FilePlayer("3", "NAMED", "ivan", grade="5k", country="UA", club="Rivne Go Club"),
        FilePlayer("4", "Brand", "New", grade="10k", country="UA"),
    )
    preview = results_preview(results=results, rating_list=None, organiser=club, fmt="egd")
    assert _statuses(preview) == {
        "1": ("matched", by_pin.pk, "EGD PIN"),
        "2": ("matched", by_fide.pk, "FIDE ID"),
        "3": ("matched", by_name.pk, "name"),
        "4": ("new", None, ""),
    }
    assert Member.objects.count() == 3  # the preview writes nothing


def test_json_keys_are_import_keys_pins_or_member_ids():
    keyed = MemberFactory(import_key="abc-7")
    pinned = MemberFactory(egd_pin="87654321")
    by_id = MemberFactory(family_name="Idd", given_name="Ira")
    results = _file(
        FilePlayer("abc-7"),
        FilePlayer("87654321"),
        FilePlayer(str(by_id.pk), family_name="Idd Ira"),
        FilePlayer("fresh"),
    )
    preview = results_preview(
        results=results, rating_list=None, organiser=ClubFactory(), fmt="json"
    )
    assert _statuses(preview) == {
        "abc-7": ("matched", keyed.pk, "import key"),
        "87654321": ("matched", pinned.pk, "EGD PIN"),
        str(by_id.pk): ("matched", by_id.pk, "member id"),
        "fresh": ("new", None, ""),
    }


def test_a_member_id_with_another_name_is_not_him():
    member = MemberFactory(family_name="Real", given_name="Name")
    results = _file(FilePlayer(str(member.pk), family_name="Quite Different"), FilePlayer("x"))
    preview = results_preview(
        results=results, rating_list=None, organiser=ClubFactory(), fmt="json"
    )
    assert preview.players[0].status == "new"


def test_a_different_pin_or_country_is_somebody_else():
    MemberFactory(family_name="Kim", given_name="Li", country="KR", egd_pin="11111111")
    results = _file(
        FilePlayer("1", "Kim", "Li", country="KR", egd_pin="22222222"),
        FilePlayer("2", "Kim", "Li", country="CN"),
    )
    preview = results_preview(results=results, rating_list=None, organiser=ClubFactory())
    assert [m.status for m in preview.players] == ["new", "new"]


def test_several_candidates_are_ambiguous_and_refused_until_chosen():
    organiser = ClubFactory()
    twins = [
        MemberFactory(family_name="Li", given_name="Wei", country="CN", club=None) for _ in range(2)
    ]
    other = MemberFactory(family_name="Zhang", given_name="San", country="CN")
    results = _file(
        FilePlayer("1", "Li", "Wei", grade="1d", country="CN"),
        FilePlayer("2", "Zhang", "San", grade="2k", country="CN"),
    )
    preview = results_preview(results=results, rating_list=None, organiser=organiser)
    assert preview.players[0].status == "ambiguous"
    assert {m.pk for m in preview.players[0].candidates} == {t.pk for t in twins}
    before = (Tournament.objects.count(), Member.objects.count(), Participant.objects.count())
    with pytest.raises(ValidationError) as refused:
        results_import(results=results, rating_list=None, organiser=organiser, by=None)
    assert "Li Wei" in refused.value.messages[0]
    assert all(f"#{t.pk}" in refused.value.messages[0] for t in twins)
    after = (Tournament.objects.count(), Member.objects.count(), Participant.objects.count())
    assert after == before

    tournament = results_import(
        results=results, rating_list=None, organiser=organiser, by=None,
        choices={"1": twins[1].pk},
    )  # fmt: skip
    assert set(tournament.participants.values_list("member_id", flat=True)) == {
        twins[1].pk,
        other.pk,
    }
    again = results_import(
        results=results, rating_list=None, organiser=organiser, by=None, choices={"1": "new"}
    )
    assert Member.objects.filter(family_name="Li", given_name="Wei").count() == 3
    assert again.pk != tournament.pk


def test_same_name_other_club_asks():
    MemberFactory(family_name="Bond", given_name="James", country="GB", club=ClubFactory())
    results = _file(
        FilePlayer("1", "Bond", "James", country="GB", club="Lond"), FilePlayer("2", "X", "Y")
    )
    preview = results_preview(results=results, rating_list=None, organiser=ClubFactory())
    assert preview.players[0].status == "ambiguous"
    assert "different club" in preview.players[0].notes[0]


def test_two_file_players_cannot_be_one_member():
    MemberFactory(family_name="Same", given_name="Person", country="UA", club=None)
    results = _file(
        FilePlayer("1", "Same", "Person", country="UA"),
        FilePlayer("2", "Same", "Person", country="UA"),
    )
    preview = results_preview(results=results, rating_list=None, organiser=ClubFactory())
    assert [m.status for m in preview.players] == ["ambiguous", "ambiguous"]


def test_a_name_match_gains_the_pin_the_file_gives():
    member = MemberFactory(family_name="Nopin", given_name="Yet", country="PL", club=None)
    results = _file(
        FilePlayer("1", "Nopin", "Yet", grade="2k", country="PL", egd_pin="13513786"),
        FilePlayer("2", "Somebody", "Else", grade="2k", country="PL"),
    )
    tournament = results_import(results=results, rating_list=None, organiser=ClubFactory(), by=None)
    member.refresh_from_db()
    assert member.egd_pin == ""  # issue 14: a file proposes; the approval applies
    staff = UserFactory(is_staff=True)
    tournament_approve_and_rate(tournament=tournament, by=staff)
    member.refresh_from_db()
    assert member.egd_pin == ""  # issue 54: the approval does not apply it either
    proposal = MemberProposal.objects.get(member=member, field="egd_pin")
    proposal_decide(proposal=proposal, by=staff, accept=True)  # one who keeps him does
    member.refresh_from_db()
    assert member.egd_pin == "13513786"


def test_players_new_to_the_list_are_flagged():
    from ratings.models import RatingEntry

    rating_list = RatingListFactory(system="egf", game="go")
    known = MemberFactory(egd_pin="10000001")
    RatingEntry.objects.create(rating_list=rating_list, member=known, rating=1500)
    stranger = MemberFactory(egd_pin="10000002")
    results = _file(
        FilePlayer("1", "A", "B", grade="5k", country="UA", egd_pin="10000001"),
        FilePlayer("2", "C", "D", grade="5k", country="UA", egd_pin="10000002"),
        FilePlayer("3", "E", "F", grade="5k", country="UA"),
    )
    preview = results_preview(results=results, rating_list=rating_list, organiser=ClubFactory())
    assert [m.new_to_list for m in preview.players] == [False, True, True]
    assert preview.players[1].member == stranger
    assert any("2 players are new" in check for check in preview.checks)
