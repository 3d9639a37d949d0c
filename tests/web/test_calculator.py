"""The win-probability calculator: help text, unknown players, and each system given
what it actually uses for a handicap (egf: stones; rivne: declared grades; ufgo: none)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.display.calculator import expectation
from ratings.systems.grades import Grade
from tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def test_help_text_shows_the_address_pattern(client):
    html = client.get(reverse("calculator")).content.decode()
    assert "/players/42/" in html and "/players//" not in html


def test_unknown_player_number_is_a_form_error(client):
    response = client.get(reverse("calculator"), {"game": "go", "a": 999999, "rating_b": 2000})
    assert response.context["answer"] is None
    assert "No player has the number 999999." in response.context["form"].errors["a"]
    assert "Give a player or a rating." not in str(response.context["form"].errors)


def test_epsilon_footnote_only_with_an_egf_row(client):
    go = client.get(reverse("calculator"), {"game": "go", "rating_a": 2100, "rating_b": 2000})
    assert 'id="epsilon-note"' in go.content.decode()
    chess = client.get(reverse("calculator"), {"game": "chess", "rating_a": 1600, "rating_b": 1500})
    assert chess.context["answer"].results
    assert 'id="epsilon-note"' not in chess.content.decode()


@pytest.mark.parametrize(
    ("systems", "white", "black"),
    [
        (("egf", "rivne"), 2100, 1700),
        (("egf", "rivne"), 2400, 2350),
        (("egf", "rivne"), 900, 150),
        (("egf",), 250, 50),  # rivne has no expectation below 100 (its UFGO rules)
    ],
)
def test_more_stones_for_the_weaker_player_never_lower_his_expectation(systems, white, black):
    for system in systems:
        figures = [expectation(system, white, black, h).b for h in range(10)]
        assert all(x is not None for x in figures), system
        assert figures == sorted(figures), (system, figures)
        assert figures[9] > figures[0], (system, figures)


@pytest.mark.parametrize("n", [1, 3, 9, 12])
def test_rivne_with_declared_grades_n_apart(n):
    """The correction follows N from the grades, whatever the stones (rivne.md D7)."""
    white = Grade.from_rank(5)  # 5d
    black = Grade.from_rank(5 - n)
    figures = [
        expectation("rivne", 2500, 2500 - 100 * n, h, grade_a=white, grade_b=black).b
        for h in range(10)
    ]
    assert figures == sorted(figures)
    assert len(set(figures[1:])) == 1  # any stones: the same correction
    if n >= 10:
        assert figures[1] == pytest.approx(0.5)
    assert f"N = {n}" in expectation("rivne", 2500, 2400, 2, grade_a=white, grade_b=black).note


def test_ufgo_says_it_has_no_handicap_correction():
    even, stones = expectation("ufgo", 2100, 1700, 0), expectation("ufgo", 2100, 1700, 4)
    assert even.b == stones.b
    assert stones.note == "UFGO has no handicap correction."
    assert even.note == ""


def test_the_page_passes_the_players_grades_to_rivne(client):
    from ratings.models import RatingEntry
    from tests.factories import RatingListFactory

    strong = MemberFactory(grade="2d")
    weak = MemberFactory(grade="3k")
    rivne = RatingListFactory(system="rivne", game="go")
    RatingEntry.objects.create(rating_list=rivne, member=strong, rating=2200)
    RatingEntry.objects.create(rating_list=rivne, member=weak, rating=1900)
    response = client.get(
        reverse("calculator"), {"game": "go", "a": strong.pk, "b": weak.pk, "handicap": 1}
    )
    (row,) = [r for r in response.context["answer"].results if r.system == "rivne"]
    assert "N = 4" in row.note and "2d" in row.note and "3k" in row.note
    assert row.note in response.content.decode()
    assert 'id="epsilon-note"' not in response.content.decode()
