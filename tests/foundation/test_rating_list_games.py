"""A rating list rates a game its system's rules are written for."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from ratings.models import SYSTEM_GAMES, RatingList
from ratings.systems.registry import SYSTEMS

pytestmark = pytest.mark.django_db
GAMES = ("go", "chess", "reversi")
FITS = {
    "egf": {"go"},
    "ufgo": {"go"},
    "rivne": {"go"},
    "orr": {"chess"},
    "uscf": {"chess", "reversi"},
}


def test_every_system_says_which_games_it_rates():
    assert set(SYSTEM_GAMES) == set(SYSTEMS) == set(FITS)


@pytest.mark.parametrize("system", sorted(FITS))
@pytest.mark.parametrize("game", GAMES)
def test_full_clean_refuses_a_game_that_does_not_fit(system, game):
    rating_list = RatingList(name="X", slug=f"{system}-{game}", system=system, game=game)
    if game in FITS[system]:
        rating_list.full_clean()
        return
    with pytest.raises(ValidationError) as refused:
        rating_list.full_clean()
    assert "game" in refused.value.message_dict
    if system == "uscf":
        assert "rates Chess or Reversi only" in refused.value.messages[0]


def test_create_rating_list_refuses_orr_for_go():
    with pytest.raises(CommandError, match="rates Chess only, not Go"):
        call_command("create_rating_list", "x", "--system", "orr", "--game", "go")
    assert not RatingList.objects.exists()


def test_create_rating_list_takes_uscf_for_chess_and_each_default():
    out = io.StringIO()
    call_command("create_rating_list", "club", "--system", "uscf", "--game", "chess", stdout=out)
    for system in sorted(FITS):
        call_command("create_rating_list", f"default-{system}", "--system", system, stdout=out)
    assert RatingList.objects.count() == 1 + len(FITS)
