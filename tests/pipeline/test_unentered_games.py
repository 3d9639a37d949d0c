"""The database keeps the played games of someone their table does not enter (issue 18):
a recompute asks it instead of reading a year of games."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import ClubFactory, MemberFactory
from tests.pipeline.builders import members
from tests.pipeline.builders import tournament_with_games as table
from tournaments.models import Game, Participant, Tournament, UnenteredGame

pytestmark = pytest.mark.django_db


def kept():
    """The games the database keeps as played by someone not entered."""
    return set(UnenteredGame.objects.values_list("game_id", "tournament_id"))


def computed():
    """The same, found from the games and the entries."""
    entered = set(Participant.objects.values_list("tournament_id", "member_id"))
    return {
        (game_id, t_id)
        for game_id, t_id, white, black in Game.objects.filter(kind=Game.Kind.PLAYED).values_list(
            "id", "tournament_id", "white_id", "black_id"
        )
        if (t_id, white) not in entered or (t_id, black) not in entered
    }


def _table(seed):
    rng = random.Random(seed)
    club = ClubFactory()
    return table(rng, club=club, players=members(rng, club, 8), day=dt.date(2024, 3, 2))


def test_a_game_of_someone_not_entered_is_kept_until_he_is_entered_again():
    tournament = _table(1)
    assert kept() == set()
    game = tournament.games.filter(kind=Game.Kind.PLAYED).first()
    Participant.objects.filter(tournament=tournament, member=game.white).delete()
    his = set(
        tournament.games.filter(kind=Game.Kind.PLAYED, white=game.white).values_list(
            "id", flat=True
        )
    ) | set(
        tournament.games.filter(kind=Game.Kind.PLAYED, black=game.white).values_list(
            "id", flat=True
        )
    )
    assert {g for g, _t in kept()} == his and kept() == computed()
    Participant.objects.create(tournament=tournament, member=game.white)
    assert kept() == set()


def test_a_game_edited_to_someone_not_entered_is_kept_and_let_go_when_it_goes():
    tournament = _table(2)
    game = tournament.games.filter(kind=Game.Kind.PLAYED).first()
    stranger = MemberFactory(club=ClubFactory())
    Game.objects.filter(pk=game.pk).update(white=stranger)  # as the database allows
    assert kept() == {(game.pk, tournament.pk)}
    Game.objects.filter(pk=game.pk).update(white=game.white)
    assert kept() == set()
    added = Game.objects.bulk_create(
        [Game(tournament=tournament, round=9, white=stranger, black=game.black, result="white")]
    )
    assert kept() == {(added[0].pk, tournament.pk)}
    Game.objects.filter(pk=added[0].pk).update(kind=Game.Kind.UNRATED)  # not a played game
    assert kept() == set()
    Game.objects.filter(pk=added[0].pk).update(kind=Game.Kind.PLAYED)
    Game.objects.filter(pk=added[0].pk).delete()
    assert kept() == set()
    Game.objects.filter(pk=game.pk).update(white=stranger)
    Tournament.objects.filter(pk=tournament.pk).delete()
    assert kept() == set()


def test_an_entry_moved_to_another_member_or_table_is_rechecked_on_both_sides():
    first, second = _table(3), _table(4)
    entry = first.participants.filter(
        member__in=first.games.filter(kind=Game.Kind.PLAYED).values("white")
    ).first()
    Participant.objects.filter(pk=entry.pk).update(tournament=second)
    assert kept() == computed() != set()
    Participant.objects.filter(pk=entry.pk).update(tournament=first)
    assert kept() == set()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["leave", "enter", "edit", "add", "drop"]), st.integers(0, 50)),
        max_size=12,
    )
)
def test_what_the_database_keeps_is_what_the_games_and_entries_say(steps):
    """Whatever happens to a table's games and entries, in any order."""
    tournament = _table(5)
    strangers = [MemberFactory(club=tournament.organiser) for _ in range(2)]
    everyone = [p.member for p in tournament.participants.all()] + strangers
    for action, pick in steps:
        games = list(tournament.games.filter(kind=Game.Kind.PLAYED).order_by("pk"))
        someone = everyone[pick % len(everyone)]
        if action == "leave":
            Participant.objects.filter(tournament=tournament, member=someone).delete()
        elif action == "enter":
            Participant.objects.get_or_create(tournament=tournament, member=someone)
        elif action == "edit" and games:
            game = games[pick % len(games)]
            if someone.pk != game.black_id:
                Game.objects.filter(pk=game.pk).update(white=someone)
        elif action == "add" and games:
            other = everyone[(pick + 1) % len(everyone)]
            if other != someone:
                Game.objects.create(
                    tournament=tournament,
                    round=20 + pick,
                    white=someone,
                    black=other,
                    result="black",
                )
        elif action == "drop" and games:
            games[pick % len(games)].delete()
        assert kept() == computed(), (action, pick)
    Tournament.objects.filter(pk=tournament.pk).delete()
    assert kept() == set()
