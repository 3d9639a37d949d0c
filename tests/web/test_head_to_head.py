"""A profile's head-to-head record, counted in the database (issue 18)."""

from __future__ import annotations

import pytest

from ratings import selectors
from tests.factories import GameFactory, MemberFactory, TournamentFactory
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def _record(member):
    return [
        (h.opponent_id, h.opponent_name, h.wins, h.losses, h.draws)
        for h in selectors.head_to_head(member)
    ]


def test_head_to_head_counts_both_colours_and_leaves_out_the_rest():
    me = MemberFactory(given_name="Ann", family_name="Me")
    often = MemberFactory(given_name="Bo", family_name="Often")
    once = MemberFactory(given_name="Cy", family_name="Once")
    unseen = MemberFactory(given_name="Di", family_name="Draftonly")
    approved = TournamentFactory(status=Tournament.Status.APPROVED)
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    W, B, D = Game.Result.WHITE, Game.Result.BLACK, Game.Result.DRAW
    GameFactory(tournament=approved, white=me, black=often, result=W)  # won as white
    GameFactory(tournament=approved, white=often, black=me, result=B)  # won as black
    GameFactory(tournament=approved, white=often, black=me, result=W)  # lost as black
    GameFactory(tournament=approved, white=me, black=often, result=D)  # drawn
    GameFactory(tournament=approved, white=once, black=me, result=W)
    GameFactory(tournament=approved, white=me, black=once, result=W, kind=Game.Kind.UNRATED)
    GameFactory(tournament=approved, white=me, black=None, result="", kind=Game.Kind.BYE_FULL)
    GameFactory(tournament=draft, white=me, black=unseen, result=W)
    GameFactory(tournament=draft, white=me, black=often, result=W)
    assert _record(me) == [
        (often.pk, "Bo Often", 2, 1, 1),
        (once.pk, "Cy Once", 0, 1, 0),
    ]
    assert _record(often) == [(me.pk, "Ann Me", 1, 2, 1)]


def test_head_to_head_ties_go_by_name():
    me = MemberFactory()
    approved = TournamentFactory(status=Tournament.Status.APPROVED)
    zed = MemberFactory(given_name="Zed", family_name="Last")
    abe = MemberFactory(given_name="Abe", family_name="First")
    GameFactory(tournament=approved, white=me, black=zed, result=Game.Result.WHITE)
    GameFactory(tournament=approved, white=abe, black=me, result=Game.Result.WHITE)
    assert [h.opponent_name for h in selectors.head_to_head(me)] == ["Abe First", "Zed Last"]


def test_head_to_head_names_an_opponent_without_a_given_name_by_his_family_name():
    me = MemberFactory()
    approved = TournamentFactory(status=Tournament.Status.APPROVED)
    mono = MemberFactory(given_name="", family_name="Mononym")
    GameFactory(tournament=approved, white=mono, black=me, result=Game.Result.DRAW)
    GameFactory(tournament=approved, white=me, black=mono, result=Game.Result.BLACK)
    assert _record(me) == [(mono.pk, "Mononym", 0, 1, 1)]
