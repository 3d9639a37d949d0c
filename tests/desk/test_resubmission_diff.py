"""Issue 55, finding 3: the resubmission diff sees a White/Black swap with the same
winner, a changed handicap rule (h9 → h0), and says byes in words."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World
from tournaments.models import Game, Tournament, TournamentLog
from tournaments.review.conversation import table_snapshot
from tournaments.review.submission_diff import submission_diff

pytestmark = pytest.mark.django_db


def _submitted(tournament: Tournament) -> None:
    """A submission's log row, its snapshot taken by the real `table_snapshot`."""
    tournament.refresh_from_db()
    TournamentLog.objects.create(
        tournament=tournament, action=TournamentLog.Action.SUBMITTED,
        params={"snapshot": table_snapshot(tournament)},
    )  # fmt: skip


@pytest.fixture
def table(world: World) -> Tournament:
    tournament = TournamentFactory(organiser=world.rivne, status="submitted", rounds=2,
                                   handicap_rule="h9")  # fmt: skip
    tournament.list_links.create(rating_list=world.lists["egf-gor"])
    ann, bob, cid = (MemberFactory(family_name=n, given_name="X") for n in ("Ann", "Bob", "Cid"))
    for member in (ann, bob, cid):
        ParticipantFactory(tournament=tournament, member=member)
    GameFactory(tournament=tournament, round=1, white=ann, black=bob, result="white")
    GameFactory(tournament=tournament, round=2, white=ann, black=None, result="",
                kind=Game.Kind.BYE_FULL)  # fmt: skip
    _submitted(tournament)
    return tournament


def test_a_colour_swap_with_the_same_winner_is_a_change(table: Tournament):
    game = table.games.get(round=1)
    Game.objects.filter(pk=game.pk).update(white=game.black, black=game.white, result="black")
    _submitted(table)
    diff = submission_diff(table)
    (changed,) = diff.results_changed
    assert "X Ann had White" in changed.before and "X Bob had White" in changed.after
    assert "X Ann won" in changed.before and "X Ann won" in changed.after


def test_a_changed_handicap_rule_is_a_change(table: Tournament):
    Tournament.objects.filter(pk=table.pk).update(handicap_rule="h0")
    _submitted(table)
    diff = submission_diff(table)
    assert not diff.empty
    assert [(c.before, c.after) for c in diff.rules_changed] == [("h9", "h0")]


@pytest.mark.parametrize(
    ("language", "bye"),
    [
        ("en", "bye, full point"),
        ("uk", "вільний тур, ціле очко"),
        ("ru", "свободный тур, целое очко"),
    ],
)
def test_the_referee_reads_byes_and_rules_in_words(world, table, language, bye):
    table.games.filter(round=2).delete()
    Tournament.objects.filter(pk=table.pk).update(handicap_rule="h0")
    _submitted(table)
    client = world.client("egf-gor-referee")
    with translation.override(language):
        url = reverse("referee_review", args=[table.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'id="resubmission-diff"' in html
    assert "bye_full" not in html and bye in html
    assert "<del>h9</del> → <strong>h0</strong>" in html
