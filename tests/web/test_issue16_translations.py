"""The words issue 16 added reach the pages in Ukrainian and Russian."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext


@pytest.mark.parametrize(
    ("lang", "word", "hidden"),
    [("uk", "Сторінку не знайдено", "неактивних гравців приховано"),
     ("ru", "Страница не найдена", "неактивных игроков скрыто")],
)  # fmt: skip
def test_new_words_are_translated(lang, word, hidden):
    with translation.override(lang):
        assert gettext("Page not found") == word
        assert hidden in ngettext(
            "%(counter)s inactive player hidden", "%(counter)s inactive players hidden", 5
        ) % {"counter": 5}
        assert gettext("inactive") != "inactive"
        assert gettext("Player A (white): name or number") != "Player A (white): name or number"
