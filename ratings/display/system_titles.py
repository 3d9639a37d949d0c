"""The rating systems' titles as people read them, translated.

The engine's `RatingSystem.title` is English data (it is part of the engine's output);
the pages show these instead, looked up by system code.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SYSTEM_TITLES: dict[str, Promise] = {
    "egf": _("European Go Federation GoR (epsilon = 0.016, EGD 1998-2021)"),
    "ufgo": _("Ukrainian Go Federation (UFGO) individual coefficient"),
    "rivne": _("Rivne Go club (EGF formula round by round, UFGO rules below 100)"),
    "orr": _("Open Russian Rating (ORR, chess)"),
    "uscf": _("Reversi (games Zone), USCF-style Elo"),
}


def system_title(code: str) -> str:
    """The translated title of a system; the code itself for an unknown one."""
    title = SYSTEM_TITLES.get(code)
    return str(title) if title is not None else code
