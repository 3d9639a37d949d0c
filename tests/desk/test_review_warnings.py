"""Issue 55, finding 5: the referee is warned of the same pairing in two rounds, a jigo
under a half-point komi, and handicap stones taken by the stronger player; the form says
what "h9, h2" mean."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from ratings.submissions.selectors import review_warnings
from tests.factories import GameFactory, MemberFactory, ParticipantFactory, TournamentFactory
from tests.trust.world import World
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _table(world: World, **details: object) -> tuple[Tournament, list]:
    tournament = TournamentFactory(organiser=world.rivne, status="submitted", rounds=3,
                                   handicap_rule="", **details)  # fmt: skip
    tournament.list_links.create(rating_list=world.lists["egf-gor"])
    players = [MemberFactory(family_name=f"P{n}", given_name="Q", grade=g)
               for n, g in enumerate(("1d", "5k", "10k", "12k"))]  # fmt: skip
    for member in players:
        ParticipantFactory(tournament=tournament, member=member)
    return tournament, players


def _texts(tournament: Tournament) -> list[str]:
    return [w.text for w in review_warnings(tournament)]


def test_the_same_pairing_in_two_rounds(world: World):
    table, (a, b, c, d) = _table(world)
    GameFactory(tournament=table, round=1, white=a, black=b)
    GameFactory(tournament=table, round=1, white=c, black=d)
    GameFactory(tournament=table, round=3, white=b, black=a)
    GameFactory(tournament=table, round=3, white=c, black=None, result="", kind="bye_full")
    found = [t for t in _texts(table) if "are paired in rounds" in t]
    assert found == ["Q P0 and Q P1 are paired in rounds 1, 3."] or found == [
        "P0 Q and P1 Q are paired in rounds 1, 3."
    ]


def test_a_jigo_with_half_point_komi(world: World):
    table, (a, b, c, d) = _table(world, komi=Decimal("0.5"))
    GameFactory(tournament=table, round=1, white=a, black=b, result="draw")
    GameFactory(tournament=table, round=1, white=c, black=d, result="draw", komi=Decimal("7"))
    found = [t for t in _texts(table) if "jigo with komi" in t]
    assert len(found) == 1 and "Round 1:" in found[0] and "0.5" in found[0]
    assert str(a) in found[0] and str(c) not in found[0]


def test_stones_taken_by_the_stronger_player(world: World):
    table, (a, b, c, d) = _table(world)
    GameFactory(tournament=table, round=1, white=b, black=a, handicap=4)  # 1d took 4 stones
    GameFactory(tournament=table, round=1, white=c, black=d, handicap=2)  # 12k, rightly
    found = [t for t in _texts(table) if "wrong way round" in t]
    assert len(found) == 1 and str(a) in found[0] and "4 handicap stones" in found[0]


def test_none_of_them_in_a_clean_table(world: World):
    table, (a, b, c, d) = _table(world, komi=Decimal("6"))
    GameFactory(tournament=table, round=1, white=a, black=b, handicap=0, result="draw")
    GameFactory(tournament=table, round=2, white=a, black=c)
    GameFactory(tournament=table, round=2, white=b, black=d, handicap=3)
    texts = " ".join(_texts(table))
    assert "paired in rounds" not in texts and "jigo" not in texts and "wrong way" not in texts


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "are paired in rounds"),
        ("uk", "зустрічаються в турах"),
        ("ru", "встречаются в турах"),
    ],
)
def test_the_referee_reads_them_in_his_language(world: World, language: str, words: str):
    table, (a, b, c, d) = _table(world)
    GameFactory(tournament=table, round=1, white=a, black=b)
    GameFactory(tournament=table, round=2, white=a, black=b)
    with translation.override(language):
        url = reverse("referee_review", args=[table.pk])
    html = world.client("egf-gor-referee").get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert words in html.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "h9: even games"), ("uk", "h9: рівні партії"), ("ru", "h9: партии на равных")],
)
def test_the_form_explains_the_handicap_rule(world: World, language: str, words: str):
    with translation.override(language):
        url = reverse("manage_tournament_create")
    page = world.client("rivne-admin").get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert words in page.content.decode()


def test_the_admin_is_warned_when_he_saves_a_repeated_pairing(world: World):
    table, (a, b, c, d) = _table(world)
    table.status = "draft"
    table.save()
    GameFactory(tournament=table, round=1, white=a, black=b)
    boards = {"board-TOTAL_FORMS": "1", "board-INITIAL_FORMS": "0", "board-0-white": a.pk,
              "board-0-black": b.pk, "board-0-kind": "played", "board-0-result": "black",
              "board-0-handicap": "0"}  # fmt: skip
    url = reverse("manage_round", args=[table.pk, 2])
    page = world.client("rivne-admin").post(url, boards, follow=True).content.decode()
    assert "are paired in rounds 1, 2." in page
    # saving round 3 with other pairs does not repeat round 2's warning
    boards.update({"board-0-white": c.pk, "board-0-black": d.pk})
    url = reverse("manage_round", args=[table.pk, 3])
    page = world.client("rivne-admin").post(url, boards, follow=True).content.decode()
    assert "are paired in rounds" not in page
