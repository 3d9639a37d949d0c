"""Issue 54: commands acting `--as` a user do what he may, no more (clubsite.authority)."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from clubsite.models import Member
from ratings.models import ListTournament
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World
from tournaments.models import MemberProposal

pytestmark = pytest.mark.django_db


def _table(world: World):
    table = TournamentFactory(organiser=world.kyiv, status="submitted", rounds=1,
                              basic_time_minutes=90)  # fmt: skip
    players = [MemberFactory(club=world.kyiv, grade=g) for g in ("5k", "6k", "7k", "8k")]
    for p in players:
        ParticipantFactory(tournament=table, member=p)
    GameFactory(tournament=table, round=1, white=players[0], black=players[1])
    GameFactory(tournament=table, round=1, white=players[2], black=players[3])
    for slug in ("egf-gor", "ufgo"):
        ListTournament.objects.create(rating_list=world.lists[slug], tournament=table)
    return table


def test_approve_as_a_referee_decides_his_list_only(world: World):
    table = _table(world)
    with pytest.raises(CommandError, match="may not"):
        call_command("approve_tournament", str(table.pk), "--as", "chess-referee")
    with pytest.raises(CommandError, match="may not"):
        call_command("approve_tournament", str(table.pk), "--as", "kyiv-admin")
    call_command("approve_tournament", str(table.pk), "--as", "egf-gor-referee")
    decisions = dict(table.list_links.values_list("rating_list__slug", "decision"))
    assert decisions == {"egf-gor": "approved", "ufgo": ""}
    with pytest.raises(CommandError, match="no active user"):
        call_command("approve_tournament", str(table.pk), "--as", "nobody")


def test_import_ratings_as_a_referee_proposes_what_he_does_not_keep(world: World, tmp_path):
    member = MemberFactory(club=world.kyiv, family_name="Petrenko", given_name="Ivan",
                           country="UA")  # fmt: skip
    path = tmp_path / "list.csv"
    path.write_text("key,family_name,given_name,country,egd_pin,rating\n"
                    "r1,Petrenko,Ivan,UA,77777777,1500\n")  # fmt: skip
    args = [str(path), "--list", "egf-gor", "--format", "csv", "--date", "2024-01-01"]
    with pytest.raises(CommandError, match="may not"):
        call_command("import_ratings", *args, "--as", "ufgo-referee")
    call_command("import_ratings", *args, "--as", "egf-gor-referee")
    assert Member.objects.get(pk=member.pk).egd_pin == ""
    assert MemberProposal.objects.get(member=member).value == "77777777"
    call_command("import_ratings", *args)  # the operator's command keeps the records
    assert Member.objects.get(pk=member.pk).egd_pin == "77777777"


def test_import_tournament_as_a_club_admin_only_for_his_club(world: World, tmp_path):
    path = tmp_path / "cup.h9"
    path.write_bytes(b"; CL[A]\n; EV[Cup]\n; DT[2024-05-01,2024-05-01]\n"
                     b"1 Aaa Bbb 5k UA Kyiv 1 2+/w\n2 Ccc Ddd 6k UA Kyiv 0 1-/b\n")  # fmt: skip
    args = [str(path), "--list", "egf-gor", "--format", "egd", "--organiser", "kyiv-go"]
    with pytest.raises(CommandError, match="may not"):
        call_command("import_tournament", *args, "--as", "rivne-admin")
    call_command("import_tournament", *args, "--as", "kyiv-admin")
