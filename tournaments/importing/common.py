"""Shared by the import's steps: the file formats' games, the kinds of games and byes,
the rating list as its caller describes it (`ListTarget`), problems as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal, Protocol

from django.utils.text import slugify

from clubsite.models import Club, GameKind
from tournaments.formats.model import (
    FilePlayer,
    Problem,
    ResultsFile,
)
from tournaments.models import Game, Tournament

MatchStatus = Literal["matched", "new", "ambiguous"]
Choice = int | Literal["new"]
FORMAT_GAMES = {"egd": GameKind.GO, "trf": GameKind.CHESS, "trf16": GameKind.CHESS}
FORMAT_GAMES["trf26"] = GameKind.CHESS
RATED_CLASSES = ("A", "B", "C")
BYE_KINDS = {1.0: Game.Kind.BYE_FULL, 0.5: Game.Kind.BYE_HALF, 0.0: Game.Kind.BYE_ZERO}
GAME_KINDS = {
    "played": Game.Kind.PLAYED,
    "unrated": Game.Kind.UNRATED,
    "forfeit": Game.Kind.FORFEIT,
}
FILE_GAME_KINDS = {kind: name for name, kind in GAME_KINDS.items()}
# FIDE federation → ISO 3166 two letters, for a new member whose file gives no country.
# Only the federations the files here carry; any other leaves the country blank.
FIDE_COUNTRIES = {"UKR": "UA", "POL": "PL", "GER": "DE", "CZE": "CZ", "SVK": "SK", "HUN": "HU"}
FIDE_COUNTRIES |= {"ROU": "RO", "MDA": "MD", "LTU": "LT", "LAT": "LV", "EST": "EE", "USA": "US"}
MAX_SMALL = 32767  # PositiveSmallIntegerField


class ListTarget(Protocol):
    """The rating list a file is imported for, as this app needs it."""

    name: str
    game: str
    system: str
    needs_grade: bool  # the list's system cannot rate a newcomer without a grade (Go)
    uses_declared_start: bool  # a newcomer starts from the rating his file declares

    def members_listed(self, member_ids: list[int]) -> set[int]:
        """Which of these members the list already has."""
        ...

    def link(self, tournament: Tournament) -> None:
        """Count the saved tournament for the list (once it is approved)."""
        ...


def _norm(text: str | None) -> str:
    return " ".join((text or "").split()).lower()


def club_index(clubs: Iterable[Club]) -> dict[str, Club]:
    """Clubs by the ways a file may write them: name, slug (EGD writes `_` for spaces)."""
    index: dict[str, Club] = {}
    for club in clubs:
        index.setdefault(_norm(club.slug.replace("-", " ")), club)
        index[_norm(club.name)] = club
    return index


# EGD writes a club as a short code of its town (`Rivn`, `Lviv`): one word of 3-6 letters.
CLUB_CODE = re.compile(r"[^\W\d_]{3,6}")


def club_code_fits(club: Club, written: str | None) -> bool:
    """The file's club code starts the club's name or slug (`Rivn`: Rivne Go Club)."""
    code = (written or "").strip().lower()
    if not CLUB_CODE.fullmatch(code):
        return False
    words = {_norm(club.name).partition(" ")[0], club.slug.partition("-")[0]} - {""}
    return any(word.startswith(code) for word in words)


def club_named(
    index: dict[str, Club], written: str | None, prefer: Club | None = None
) -> Club | None:
    """The club a file's club column names, if it names one of ours: by its name or slug,
    else by a club code that fits one club only (or `prefer`, the club entering the file,
    among those it fits)."""
    if not written:
        return None
    text = _norm(written.replace("_", " "))
    found = index.get(text) or index.get(_norm(slugify(text).replace("-", " ")))
    if found is not None:
        return found
    fits = {club.pk: club for club in index.values() if club_code_fits(club, written)}
    if prefer is not None and prefer.pk in fits:
        return prefer
    return next(iter(fits.values())) if len(fits) == 1 else None


def _format_code(results: ResultsFile, fmt: str | None) -> str | None:
    if fmt:
        code = fmt.lower()
        return "trf" if code.startswith("trf") else ("egd" if code in ("h9", "txt") else code)
    if results.details.trf_version:
        return "trf"
    return None


def _game_for(fmt: str | None, target: ListTarget | None) -> str:
    """egd → Go, TRF → chess, CSV/JSON → the list's game (Go without a list)."""
    if fmt in FORMAT_GAMES:
        return str(FORMAT_GAMES[fmt])
    return target.game if target is not None else str(GameKind.GO)


def _keys_identify(fmt: str | None) -> bool:
    """CSV and JSON name players by an external id; EGD/TRF keys are only places."""
    return fmt in ("csv", "json")


def problems_text(problems: Iterable[Problem]) -> list[str]:
    """Problems as lines, by line number (those without a line last)."""
    ordered = sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))
    return [f"{p.severity}: {p}" for p in ordered]


def _declared(player: FilePlayer, fmt: str | None) -> int | None:
    """A rating the player brought: FIDE's from a TRF, the JSON's own `rating`."""
    value: float | None = player.fide_rating
    if value is None and fmt == "json":
        value = player.rating
    if value is None or not 0 <= value <= MAX_SMALL:
        return None
    return round(value)
