"""The kinds a results file needs kept: played-not-rated games and pairing byes (issue 7)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from clubsite.members import effective_birth_date
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tournaments.models import Game
from tournaments.selectors import crosstable

pytestmark = pytest.mark.django_db


def test_an_unrated_game_needs_an_opponent_and_a_result():
    with transaction.atomic(), pytest.raises(IntegrityError):
        GameFactory(kind=Game.Kind.UNRATED, black=None)
    with transaction.atomic(), pytest.raises(IntegrityError):
        GameFactory(kind=Game.Kind.UNRATED, result="")
    game = GameFactory(kind=Game.Kind.UNRATED, result=Game.Result.DRAW)
    assert not game.is_rated


def test_a_pairing_bye_has_no_opponent():
    with transaction.atomic(), pytest.raises(IntegrityError):
        GameFactory(kind=Game.Kind.BYE_PAIRING, result="")
    assert Game.Kind.BYE_PAIRING in Game.BYES
    assert not GameFactory(kind=Game.Kind.BYE_PAIRING, black=None, result="").is_rated


def test_crosstable_marks_unrated_games_and_counts_pairing_byes():
    tournament = TournamentFactory(rounds=2)
    a, b = MemberFactory(), MemberFactory()
    for member in (a, b):
        ParticipantFactory(tournament=tournament, member=member)
    GameFactory(tournament=tournament, round=1, white=a, black=b, kind=Game.Kind.UNRATED)
    GameFactory(
        tournament=tournament, round=2, white=a, black=None, result="", kind=Game.Kind.BYE_PAIRING
    )
    rows = {row.member.pk: row for row in crosstable(tournament).rows}
    assert rows[a.pk].points == Decimal(2)
    assert rows[a.pk].cells[0].text.endswith("*")
    assert rows[a.pk].cells[1].text == "0+"
    assert rows[b.pk].points == Decimal(0)


def test_effective_birth_date():
    assert effective_birth_date(dt.date(1990, 3, 4), 1990) == dt.date(1990, 3, 4)
    assert effective_birth_date(None, 1999) == dt.date(1999, 7, 1)  # orr.md D8
    assert effective_birth_date(None, None) is None
