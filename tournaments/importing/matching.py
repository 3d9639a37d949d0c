"""Who each file player is: a member matched by key, by name (and club), new, or
ambiguous; `ImportPreview` holds the answer for the page to show.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Value
from django.db.models.functions import Concat, Lower
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubsite.batches import in_batches
from clubsite.duplicates import DuplicateIndex
from clubsite.models import Club, Member
from clubsite.numbers import is_ascii_number
from tournaments.formats.model import (
    FilePlayer,
    Problem,
    ResultsFile,
)
from tournaments.importing.common import (
    ListTarget,
    MatchStatus,
    _keys_identify,
    _norm,
    club_code_fits,
    club_named,
)

# --- the preview ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerMatch:
    """Who one file player is: an existing member, a member to create, or undecided."""

    player: FilePlayer
    status: MatchStatus
    member: Member | None = None
    candidates: tuple[Member, ...] = ()
    matched_by: str = ""  # "EGD PIN", "FIDE ID", "import key", "member id", "name"
    new_to_list: bool = False
    notes: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return self.player.key


@dataclass(frozen=True)
class ImportPreview:
    results: ResultsFile
    target: ListTarget | None
    organiser: Club
    game: str
    players: tuple[PlayerMatch, ...]
    warnings: tuple[Problem, ...] = ()  # the file's own warnings
    checks: tuple[str, ...] = ()  # what the importer derived: unrated games, classes, …
    errors: tuple[str, ...] = ()  # what stops the import even with every choice made

    def by_status(self, status: MatchStatus) -> list[PlayerMatch]:
        return [m for m in self.players if m.status == status]

    @property
    def matched(self) -> list[PlayerMatch]:
        return self.by_status("matched")

    @property
    def new(self) -> list[PlayerMatch]:
        return self.by_status("new")

    @property
    def ambiguous(self) -> list[PlayerMatch]:
        return self.by_status("ambiguous")

    @property
    def linked_for_rating(self) -> bool:
        return self.target is not None and self.results.details.is_rated_class


class _Index:
    """Every member the file could mean, loaded in a few queries."""

    def __init__(self, results: ResultsFile, fmt: str | None) -> None:
        players = results.players
        keyed = _keys_identify(fmt)
        pins = {p.egd_pin for p in players if p.egd_pin}
        fides = {p.fide_id for p in players if p.fide_id}
        keys = {p.key for p in players} if keyed else set()
        ids = {int(k) for k in keys if is_ascii_number(k, max_digits=9)}
        names = {_norm(_full_name(p, fmt)) for p in players} - {""}
        base = Member.objects.select_related("club")
        # In batches: SQLite refuses a query with more than 32,766 parameters.
        self.by_pin = {m.egd_pin: m for m in in_batches(base, "egd_pin", pins | keys)}
        self.by_fide = {m.fide_id: m for m in in_batches(base, "fide_id", fides | keys)}
        self.by_key = {m.import_key: m for m in in_batches(base, "import_key", keys)}
        self.by_id = {m.pk: m for m in in_batches(base, "pk", ids)}
        self.by_name: dict[str, list[Member]] = defaultdict(list)
        if names:
            annotated = base.annotate(
                fg=Lower(Concat("family_name", Value(" "), "given_name")),
                gf=Lower(Concat("given_name", Value(" "), "family_name")),
            )
            wanted = names | {n + " " for n in names} | {" " + n for n in names}
            found = {
                m.pk: m for field in ("fg", "gf") for m in in_batches(annotated, field, wanted)
            }
            for member in sorted(found.values(), key=lambda m: m.pk):
                self.by_name[_norm(f"{member.family_name} {member.given_name}")].append(member)
                if keyed:
                    reverse = _norm(f"{member.given_name} {member.family_name}")
                    if reverse != _norm(f"{member.family_name} {member.given_name}"):
                        self.by_name[reverse].append(member)


def _full_name(player: FilePlayer, fmt: str | None) -> str:
    """The name as the file gives it; a CSV player is named by his key."""
    if fmt == "csv" and not player.family_name:
        return player.key
    return " ".join(part for part in (player.family_name, player.given_name) if part)


def _name_matches(member: Member, player: FilePlayer, fmt: str | None) -> bool:
    name = _norm(_full_name(player, fmt))
    return name in (
        _norm(f"{member.family_name} {member.given_name}"),
        _norm(f"{member.given_name} {member.family_name}"),
    )


def _club_matches(member: Member, club: str) -> bool:
    if member.club is None:
        return False
    return (
        _norm(member.club.name) == _norm(club)
        or member.club.slug == slugify(club)
        or club_code_fits(member.club, club)
    )


def _match_one(player: FilePlayer, index: _Index, fmt: str | None) -> PlayerMatch:
    if player.egd_pin and player.egd_pin in index.by_pin:
        return PlayerMatch(player, "matched", index.by_pin[player.egd_pin], matched_by="EGD PIN")
    if player.fide_id and player.fide_id in index.by_fide:
        return PlayerMatch(player, "matched", index.by_fide[player.fide_id], matched_by="FIDE ID")
    if _keys_identify(fmt):
        key = player.key
        if key in index.by_key:
            return PlayerMatch(player, "matched", index.by_key[key], matched_by="import key")
        if key in index.by_pin:
            return PlayerMatch(player, "matched", index.by_pin[key], matched_by="EGD PIN")
        if key in index.by_fide:
            return PlayerMatch(player, "matched", index.by_fide[key], matched_by="FIDE ID")
        by_id = index.by_id.get(int(key)) if is_ascii_number(key, max_digits=9) else None
        # A number is a member id, unless the file also names somebody else.
        if by_id is not None and (not player.family_name or _name_matches(by_id, player, fmt)):
            return PlayerMatch(player, "matched", by_id, matched_by="member id")
    return _match_by_name(player, index, fmt)


def _match_by_name(player: FilePlayer, index: _Index, fmt: str | None) -> PlayerMatch:
    name = _norm(_full_name(player, fmt))
    hits = list(dict.fromkeys(index.by_name.get(name, [])))
    # A member who carries a different PIN or FIDE ID is somebody else.
    hits = [
        m
        for m in hits
        if not (player.egd_pin and m.egd_pin and m.egd_pin != player.egd_pin)
        and not (player.fide_id and m.fide_id and m.fide_id != player.fide_id)
    ]
    if player.country:
        hits = [m for m in hits if not m.country or m.country == player.country.upper()]
    if not hits:
        return PlayerMatch(player, "new")
    if player.club:
        same_club = [m for m in hits if _club_matches(m, player.club)]
        if len(same_club) == 1:
            return PlayerMatch(player, "matched", same_club[0], matched_by="name")
        if same_club:
            hits = same_club
        elif len(hits) == 1 and hits[0].club is not None:
            note = _("Same name and country, but a different club (%(club)s).") % {
                "club": hits[0].club.name
            }
            return PlayerMatch(player, "ambiguous", candidates=tuple(hits), notes=(note,))
    if len(hits) == 1:
        return PlayerMatch(player, "matched", hits[0], matched_by="name")
    return PlayerMatch(player, "ambiguous", candidates=tuple(hits))


def _claimed_twice(matches: list[PlayerMatch]) -> list[PlayerMatch]:
    """Two file players cannot be one member: both become choices to make."""
    owners: dict[int, list[int]] = defaultdict(list)
    for at, match in enumerate(matches):
        if match.member is not None:
            owners[match.member.pk].append(at)
    for positions in owners.values():
        if len(positions) < 2:
            continue
        for at in positions:
            match = matches[at]
            note = _("Another player in the file matches the same member.")
            matches[at] = PlayerMatch(
                match.player,
                "ambiguous",
                candidates=(match.member,),  # type: ignore[arg-type]
                notes=(*match.notes, note),
            )
    return matches


def _with_list_flags(matches: list[PlayerMatch], target: ListTarget | None) -> list[PlayerMatch]:
    if target is None:
        return matches
    listed = target.members_listed([m.member.pk for m in matches if m.member is not None])
    return [
        PlayerMatch(
            m.player,
            m.status,
            m.member,
            m.candidates,
            m.matched_by,
            new_to_list=m.member is None or m.member.pk not in listed,
            notes=m.notes,
        )
        for m in matches
    ]


def with_likely_duplicates(
    matches: list[PlayerMatch],
    fmt: str | None,
    clubs: dict[str, Club],
    organiser: Club | None = None,
) -> list[PlayerMatch]:
    """A player the file brings as new may be a member under another spelling (Шевчук,
    Shevchuk) or with his PIN: then the admin chooses (issue 14: one person, one member)."""
    new = [m for m in matches if m.status == "new"]
    if not new:
        return matches
    index = DuplicateIndex()
    out = []
    for match in matches:
        if match.status != "new":
            out.append(match)
            continue
        player = match.player
        family, given = player.family_name, player.given_name
        if not family:
            family = _full_name(player, fmt)
        candidates = index.find(
            family_name=family, given_name=given or "", birth_year=player.birth_year,
            club=club_named(clubs, player.club, organiser), egd_pin=player.egd_pin or "",
            fide_id=player.fide_id or "",
        )  # fmt: skip
        # As in matching by name: another PIN, FIDE ID or country is somebody else.
        country = (player.country or "").upper()
        candidates = [
            c
            for c in candidates
            if not (player.egd_pin and c.member.egd_pin and c.member.egd_pin != player.egd_pin)
            and not (player.fide_id and c.member.fide_id and c.member.fide_id != player.fide_id)
            and not (country and c.member.country and c.member.country != country)
        ]
        if not candidates:
            out.append(match)
            continue
        notes = tuple(
            _("Likely the same person: %(name)s (#%(id)d): %(why)s.")
            % {"name": c.member.full_name, "id": c.member.pk, "why": c.text}
            for c in candidates
        )
        out.append(
            PlayerMatch(
                player,
                "ambiguous",
                candidates=tuple(c.member for c in candidates),
                notes=(*match.notes, *notes),
            )  # fmt: skip
        )
    return out
