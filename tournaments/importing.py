"""Results files into the database and back (issue 7): preview, import, export.

The parsers in `tournaments.formats` turn a file into a neutral `ResultsFile`;
this module decides who each file player is (`results_preview`, writes
nothing), saves the tournament in one transaction (`results_import`) and
builds a `ResultsFile` from a stored tournament (`tournament_to_results`).

The rating list a file is meant for comes from the caller as a `ListTarget`: its
name, game and system, which of the players it already lists, and how to link the
saved tournament to it. This app never imports the ratings app; `ratings.importing`
builds the target from a `RatingList` and is what the pages and the command call.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal, Protocol

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, Value
from django.db.models.functions import Concat, Lower
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubsite.batches import in_batches
from clubsite.fields import parse_grade
from clubsite.models import Club, GameKind, Member
from clubsite.numbers import is_ascii_number
from tournaments.formats.model import (
    FileBye,
    FileGame,
    FilePlayer,
    Problem,
    ResultsFile,
    TimeControl,
    TournamentDetails,
)
from tournaments.import_identity import identity_errors
from tournaments.models import Game, Participant, Tournament, TournamentLog
from tournaments.services import Pairing, round_replace

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

    def members_listed(self, member_ids: list[int]) -> set[int]:
        """Which of these members the list already has."""
        ...

    def link(self, tournament: Tournament) -> None:
        """Count the saved tournament for the list (once it is approved)."""
        ...


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


def _norm(text: str | None) -> str:
    return " ".join((text or "").split()).lower()


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
    return _norm(member.club.name) == _norm(club) or member.club.slug == slugify(club)


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


def results_preview(
    *,
    results: ResultsFile,
    organiser: Club,
    fmt: str | None = None,
    target: ListTarget | None = None,
) -> ImportPreview:
    """Who each file player is and what the import would do. Writes nothing."""
    code = _format_code(results, fmt)
    index = _Index(results, code)
    matches = _claimed_twice([_match_one(p, index, code) for p in results.players])
    matches = _with_list_flags(matches, target)
    game = _game_for(code, target)
    return ImportPreview(
        results=results,
        target=target,
        organiser=organiser,
        game=game,
        players=tuple(matches),
        warnings=(*results.warnings, *_duplicate_warnings(results.details)),
        checks=tuple(_checks(results, target, matches)),
        errors=tuple(
            _errors(results, target, game, matches)
            + _grade_errors(results, target, _decided(matches), _listed(matches), code)
        ),
    )


def _name_and_dates(details: TournamentDetails) -> tuple[str, dt.date, dt.date]:
    """The name and dates the tournament is saved with (see `_create_tournament`)."""
    start, end = details.start_date, details.end_date
    start = start or end or timezone.localdate()
    end = end or start
    if end < start:
        start, end = end, start
    fallback = _("Imported results %(date)s") % {"date": end.isoformat()}
    return (details.name or details.code or fallback)[:200], start, end


DUPLICATES_NAMED = 3


def _duplicate_warnings(details: TournamentDetails) -> list[Problem]:
    """The tournaments this file may already be: same name and end date, or same code.

    Only a warning: a club may hold two events of one name on one day (two groups).
    """
    name, _start, end = _name_and_dates(details)
    code = (details.code or "").strip()[:200]
    same = Q(name=name, end_date=end) | (Q(code=code) if code else Q(pk__in=[]))
    found = list(Tournament.objects.filter(same).order_by("-end_date", "pk")[:DUPLICATES_NAMED])
    warnings = []
    for tournament in found:
        values = {
            "name": tournament.name,
            "date": tournament.end_date.isoformat(),
            "id": tournament.pk,
            "status": tournament.get_status_display(),
        }
        if code and tournament.code == code:
            values["code"] = code
            message = _(
                "A tournament with the code %(code)s is already here: %(name)s (%(date)s, "
                "#%(id)s, %(status)s). Importing the file again makes a second one."
            )
        else:
            message = _(
                "A tournament with this name and end date is already here: %(name)s "
                "(%(date)s, #%(id)s, %(status)s). Importing the file again makes a second one."
            )
        warnings.append(Problem(None, None, message % values, "warning"))
    return warnings


def _checks(
    results: ResultsFile, target: ListTarget | None, matches: list[PlayerMatch]
) -> list[str]:
    details = results.details
    checks: list[str] = []
    klass = details.tournament_class
    if klass is not None and klass not in RATED_CLASSES:
        checks.append(
            _("Class %(klass)s: the tournament is imported but not linked for rating.")
            % {"klass": klass}
        )
    elif klass is None and target is not None and target.system == "egf":
        checks.append(_("The file gives no class; class A is assumed."))
    if target is None:
        checks.append(_("No rating list: the tournament is imported but not rated."))
    unrated = [g for g in results.games if not g.is_rated]
    if unrated:
        checks.append(
            _("%(n)d games are not rated (forfeits or games over before a move).")
            % {"n": len(unrated)}
        )
    double = [g for g in results.games if g.result == "none"]
    if double:
        checks.append(
            _("%(n)d forfeits that both players lost are stored as zero-point byes.")
            % {"n": len(double)}
        )
    if results.byes:
        checks.append(_("%(n)d byes (never rated).") % {"n": len(results.byes)})
    carried = [p for p in results.players if p.rating is not None]
    if carried:
        checks.append(
            _(
                "%(n)d players carry a rating in the file. A player new to the list starts "
                "from it; a player already in the list keeps the list's own."
            )
            % {"n": len(carried)}
        )
    storied = [p for p in results.players if p.history is not None or p.best_grade is not None]
    if storied:
        checks.append(
            _("%(n)d players carry a history or best grade in the file: the list keeps its own.")
            % {"n": len(storied)}
        )
    if details.end_date is None and details.start_date is None:
        checks.append(_("The file gives no date; today is used."))
    elif details.start_date and details.end_date and details.end_date < details.start_date:
        checks.append(_("The file's dates are in the wrong order; they are swapped."))
    if details.time_control is None:
        checks.append(_("The time control is not known; no time-control rule blocks rating."))
    if target is not None:
        newcomers = [m for m in matches if m.new_to_list]
        if newcomers:
            checks.append(
                _("%(n)d players are new to the list %(list)s.")
                % {"n": len(newcomers), "list": target.name}
            )
    return checks


def _errors(
    results: ResultsFile, target: ListTarget | None, game: str, matches: list[PlayerMatch]
) -> list[str]:
    errors = []
    if target is not None and target.game != game:
        errors.append(
            _("The list %(list)s rates %(list_game)s, but this file is a %(game)s table.")
            % {"list": target.name, "list_game": target.game, "game": game}
        )
    for kind, attr in (("EGD PIN", "egd_pin"), ("FIDE ID", "fide_id")):
        seen: dict[str, str] = {}
        for player in results.players:
            value = getattr(player, attr)
            if value and value in seen:
                errors.append(
                    _("Players %(a)s and %(b)s have the same %(kind)s %(value)s.")
                    % {"a": seen[value], "b": player.name, "kind": kind, "value": value}
                )
            elif value:
                seen[value] = player.name
    return errors


def _decided(matches: Iterable[PlayerMatch]) -> dict[str, Member | None]:
    """File key → the member he is, or None for a new member; undecided players left out."""
    return {m.key: m.member for m in matches if m.status != "ambiguous"}


def _listed(matches: Iterable[PlayerMatch]) -> set[int]:
    return {m.member.pk for m in matches if m.member is not None and not m.new_to_list}


def _grade_errors(
    results: ResultsFile,
    target: ListTarget | None,
    members: Mapping[str, Member | None],
    listed: set[int],
    fmt: str | None,
) -> list[str]:
    """A Go list starts a newcomer from his grade: one with neither grade nor rating stops it.

    The recompute would fail on him (the engine refuses a new player without a grade), so
    the import refuses him first. Only players of rated games in a rated class count;
    `members` holds the decided players (None: a member to create).
    """
    if target is None or not target.needs_grade or not results.details.is_rated_class:
        return []
    playing = {key for g in results.games if g.is_rated for key in (g.white, g.black)}
    errors: list[str] = []
    for player in results.players:
        if player.key not in playing or player.key not in members:
            continue
        member = members[player.key]
        if member is not None and (member.pk in listed or member.grade is not None):
            continue
        if parse_grade(player.grade) is not None or _declared(player, fmt) is not None:
            continue
        values = {"player": player.name, "list": target.name, "line": player.line}
        if player.line is not None:
            message = _(
                "Line %(line)d: %(player)s is new to the list %(list)s and has no grade; "
                "the list cannot rate a newcomer without one. Give his grade in the file."
            )
        else:
            values["key"] = player.key
            message = _(
                "%(player)s (number %(key)s in the file) is new to the list %(list)s and has no grade; "
                "the list cannot rate a newcomer without one. Give his grade in the file."
            )
        errors.append(message % values)
    return errors


# --- the import -----------------------------------------------------------------------


def _resolve(
    preview: ImportPreview, choices: Mapping[str, Choice] | None
) -> tuple[dict[str, Member | None], list[str]]:
    """Each file key → an existing member, or None for "create him"; and what is undecided."""
    choices = dict(choices or {})
    chosen_ids = {v for v in choices.values() if v != "new"}
    chosen = Member.objects.select_related("club").in_bulk(
        [int(v) for v in chosen_ids]  # type: ignore[arg-type]
    )
    resolved: dict[str, Member | None] = {}
    errors: list[str] = []
    for match in preview.players:
        choice = choices.pop(match.key, None)
        if choice == "new":
            resolved[match.key] = None
        elif choice is not None:
            member = chosen.get(int(choice))
            if member is None:
                errors.append(
                    _("%(player)s: there is no member %(id)s.")
                    % {"player": match.player.name, "id": choice}
                )
            resolved[match.key] = member
        elif match.status == "ambiguous":
            names = ", ".join(f"{m.full_name} (#{m.pk})" for m in match.candidates)
            errors.append(
                _(
                    "%(player)s (number %(key)s in the file) could be: %(names)s. "
                    "Choose one, or a new member."
                )
                % {"player": match.player.name, "key": match.key, "names": names}
            )
        else:
            resolved[match.key] = match.member
    for key in choices:
        errors.append(_("There is no player %(key)s in the file.") % {"key": key})
    seen: dict[int, str] = {}
    for key, member in resolved.items():
        if member is None:
            continue
        if member.pk in seen:
            errors.append(
                _("Players %(a)s and %(b)s would both be %(member)s.")
                % {"a": seen[member.pk], "b": key, "member": member.full_name}
            )
        seen[member.pk] = key
    return resolved, errors


def results_errors(
    *,
    results: ResultsFile,
    organiser: Club,
    target: ListTarget | None = None,
    choices: Mapping[str, Choice] | None = None,
    fmt: str | None = None,
) -> list[str]:
    """Every reason `results_import` would refuse the file with these choices. Writes nothing."""
    preview = results_preview(results=results, target=target, organiser=organiser, fmt=fmt)
    return _import_check(preview, choices, fmt)[1]


def _import_check(
    preview: ImportPreview, choices: Mapping[str, Choice] | None, fmt: str | None
) -> tuple[dict[str, Member | None], list[str]]:
    """The members the file's players become, and every reason not to save the file.

    The grade check runs again on the players as chosen: a choice may make a new member
    of a player the preview matched, or settle one it could not.
    """
    resolved, errors = _resolve(preview, choices)
    results, target = preview.results, preview.target
    code = _format_code(results, fmt)
    listed: set[int] = set()
    if target is not None:
        listed = target.members_listed([m.pk for m in resolved.values() if m is not None])
    return resolved, (
        _errors(results, target, preview.game, list(preview.players))
        + errors
        + identity_errors(results.players, resolved)
        + _grade_errors(results, target, resolved, listed, code)
    )


def results_import(
    *,
    results: ResultsFile,
    organiser: Club,
    by: AbstractBaseUser | None,
    target: ListTarget | None = None,
    choices: Mapping[str, Choice] | None = None,
    status: str = Tournament.Status.SUBMITTED,
    fmt: str | None = None,
    source: str = "",
) -> Tournament:
    """Save the file as a tournament, in one transaction: all of it or nothing.

    `choices` settles players the preview could not (file key → member id or "new")
    and may override its matches. Raises ValidationError listing every player still
    undecided, and every other reason the file cannot be saved.
    """
    if status not in (Tournament.Status.SUBMITTED, Tournament.Status.DRAFT):
        raise ValidationError(_("An import is saved as a draft or submitted."))
    if by is not None and not (by.is_staff or organiser.admins.filter(pk=by.pk).exists()):
        raise PermissionDenied(_("Only the organising club's admins import its results."))
    preview = results_preview(results=results, target=target, organiser=organiser, fmt=fmt)
    resolved, errors = _import_check(preview, choices, fmt)
    if errors:
        raise ValidationError(errors)
    code = _format_code(results, fmt)
    with transaction.atomic():
        tournament = _create_tournament(results.details, preview.game, organiser, code)
        members = _create_members(results.players, resolved, code)
        _fill_identities(results.players, members)
        _create_participants(tournament, results.players, members, code)
        _create_games(tournament, results, members)
        linked = preview.linked_for_rating
        if linked:
            target.link(tournament)
        if status == Tournament.Status.SUBMITTED:
            tournament.status = Tournament.Status.SUBMITTED
            tournament.submitted_at = timezone.now()
            tournament.submitted_by = by
            tournament.save(update_fields=["status", "submitted_at", "submitted_by"])
        TournamentLog.objects.create(
            tournament=tournament,
            action=TournamentLog.Action.IMPORTED,
            by=by,
            comment=_log_comment(preview, source, linked),
        )
    return tournament


def _log_comment(preview: ImportPreview, source: str, linked: bool) -> str:
    lines = [
        _("Imported %(source)s: %(players)d players (%(new)d new), %(games)d games.")
        % {
            "source": source or _("a results file"),
            "players": len(preview.players),
            "new": sum(1 for m in preview.players if m.status != "matched"),
            "games": len(preview.results.games),
        }
    ]
    if not linked:
        lines.append(_("Not linked to a rating list for rating."))
    lines += list(preview.checks)
    return "\n".join(lines)


def _unique_slug(name: str, day: dt.date) -> str:
    base = slugify(name)[:80].strip("-") or f"tournament-{day.isoformat()}"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _decimal(value: float) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _exact_minutes(time: TimeControl | None) -> Decimal | None:
    """EGD `TM[…]` as written (62.5 stays 62.5), when it fits the column."""
    if time is None or time.adjusted_minutes is None:
        return None
    value = Decimal(str(time.adjusted_minutes))
    if not 0 <= value < 100000 or value != value.quantize(Decimal("0.01")):
        return None
    return value


def _create_tournament(
    details: TournamentDetails, game: str, organiser: Club, fmt: str | None = None
) -> Tournament:
    name, start, end = _name_and_dates(details)
    country = details.country.upper() if re.fullmatch(r"[A-Za-z]{2}", details.country) else ""
    komi = details.komi if details.komi is not None and abs(details.komi) < 1000 else None
    rounds = max(details.rounds, 1)
    tournament = Tournament(
        name=name,
        slug=_unique_slug(name, end),
        city=details.city[:120],
        country=country,
        start_date=start,
        end_date=end,
        game=game,
        board_size=details.board_size or 19,
        tournament_class=details.tournament_class
        if details.tournament_class in RATED_CLASSES
        else Tournament.Klass.A,
        handicap_rule=f"h{details.handicap_rule}" if details.handicap_rule is not None else "",
        komi=_decimal(komi) if komi is not None else None,
        rounds=min(rounds, MAX_SMALL),
        code=(details.code or "").strip()[:200],
        comment=details.comment,
        adjusted_minutes=_exact_minutes(details.time_control),
        federation=details.federation[:3],
        chief_arbiter=details.chief_arbiter[:200],
        tournament_type=details.tournament_type[:200],
        organiser=organiser,
        official=details.official if details.official is not None else True,
        status=Tournament.Status.DRAFT,
    )
    _apply_time_control(tournament, details.time_control)
    tournament.save()
    return tournament


_BYOYOMI = re.compile(r"(\d+)\s*[x×]\s*(\d+)\s*s?", re.IGNORECASE)
_TRF_TIME = re.compile(r"(\d+)\s*'\s*(?:\+\s*(\d+)\s*(?:''|\"))?")


def _apply_time_control(tournament: Tournament, time: TimeControl | None) -> None:
    """Fill what the file says; the model's defaults stand for what it does not."""
    if time is None:
        return
    overtime = (time.overtime or "").lower()
    if time.basic_minutes is not None:
        tournament.basic_time_minutes = min(round(time.basic_minutes), MAX_SMALL)
        if time.fischer_increment_seconds is not None:
            tournament.overtime_kind = Tournament.Overtime.FISCHER
            tournament.overtime_seconds = round(time.fischer_increment_seconds)
        elif "canadian" in overtime:
            tournament.overtime_kind = Tournament.Overtime.CANADIAN
        elif (match := _BYOYOMI.search(overtime)) is not None:
            tournament.overtime_kind = Tournament.Overtime.BYOYOMI
            tournament.overtime_seconds = int(match.group(2))
        elif not overtime or "sudden" in overtime:
            tournament.overtime_kind = Tournament.Overtime.SUDDEN_DEATH
            tournament.overtime_seconds = 0
    elif time.adjusted_minutes is not None:
        # EGD `TM[…]` is the adjusted time already: store it as that much sudden death.
        tournament.basic_time_minutes = min(round(time.adjusted_minutes), MAX_SMALL)
        tournament.overtime_kind = Tournament.Overtime.SUDDEN_DEATH
        tournament.overtime_seconds = 0
    elif time.description and (match := _TRF_TIME.search(time.description)) is not None:
        tournament.basic_time_minutes = min(int(match.group(1)), MAX_SMALL)
        if match.group(2):
            tournament.overtime_kind = Tournament.Overtime.FISCHER
            tournament.overtime_seconds = int(match.group(2))
        else:
            tournament.overtime_kind = Tournament.Overtime.SUDDEN_DEATH
            tournament.overtime_seconds = 0


def _split_name(player: FilePlayer, fmt: str | None) -> tuple[str, str]:
    """Family and given name; CSV and JSON give one name, written "Family Given"."""
    if player.given_name or fmt not in ("csv", "json"):
        return (player.family_name or player.key), player.given_name
    full = _full_name(player, fmt) or player.key
    family, _space, given = full.partition(" ")
    return family, given


def _create_members(
    players: Iterable[FilePlayer], resolved: dict[str, Member | None], fmt: str | None
) -> dict[str, Member]:
    clubs = {_norm(c.name): c for c in Club.objects.all()}
    members: dict[str, Member] = {}
    for player in players:
        member = resolved.get(player.key)
        if member is not None:
            members[player.key] = member
            continue
        family, given = _split_name(player, fmt)
        country = (player.country or "").upper()
        if not country and player.federation:
            country = FIDE_COUNTRIES.get(player.federation.upper(), "")
        members[player.key] = Member.objects.create(
            family_name=family[:100],
            given_name=given[:100],
            grade=parse_grade(player.grade),
            country=country if re.fullmatch(r"[A-Z]{2}", country) else "",
            club=clubs.get(_norm(player.club)) if player.club else None,
            egd_pin=player.egd_pin or "",
            fide_id=player.fide_id or "",
            fide_rating=player.fide_rating if 0 < (player.fide_rating or 0) <= MAX_SMALL else None,
            birth_date=player.birth_date,
            birth_year=_birth_year(player),
            fide_title=(player.title or "")[:3],
            federation=(player.federation or "").upper()[:3],
            sex=player.sex or "",
            import_key=player.key[:60] if fmt == "json" else "",
        )
    return members


def _birth_year(player: FilePlayer) -> int | None:
    """The year alone, kept only when the file gives no full date."""
    if player.birth_date is not None or player.birth_year is None:
        return None
    return player.birth_year if 0 < player.birth_year <= MAX_SMALL else None


def _fill_identities(players: Iterable[FilePlayer], members: dict[str, Member]) -> None:
    """A matched member keeps the PIN, FIDE ID, title, federation the file gives and he lacked."""
    for player in players:
        member = members[player.key]
        changed = []
        for field, value in (
            ("fide_title", (player.title or "")[:3]),
            ("federation", (player.federation or "").upper()[:3]),
        ):
            if value and not getattr(member, field):
                setattr(member, field, value)
                changed.append(field)
        year = _birth_year(player)
        if year and member.birth_date is None and member.birth_year is None:
            member.birth_year = year
            changed.append("birth_year")
        if player.egd_pin and not member.egd_pin:
            member.egd_pin = player.egd_pin
            changed.append("egd_pin")
        if player.fide_id and not member.fide_id:
            member.fide_id = player.fide_id
            changed.append("fide_id")
        if changed:
            member.save(update_fields=changed)


def _declared(player: FilePlayer, fmt: str | None) -> int | None:
    """A rating the player brought: FIDE's from a TRF, the JSON's own `rating`."""
    value: float | None = player.fide_rating
    if value is None and fmt == "json":
        value = player.rating
    if value is None or not 0 <= value <= MAX_SMALL:
        return None
    return round(value)


def _create_participants(
    tournament: Tournament,
    players: Iterable[FilePlayer],
    members: dict[str, Member],
    fmt: str | None,
) -> None:
    Participant.objects.bulk_create(
        Participant(
            tournament=tournament,
            member=members[p.key],
            grade=parse_grade(p.grade),
            place=p.place if p.place is not None and 0 < p.place <= MAX_SMALL else None,
            team=(p.club or "")[:100],
            rating_declared=_declared(p, fmt),
        )
        for p in players
    )


def _pairings(game: FileGame, members: dict[str, Member]) -> list[Pairing]:
    white, black = members[game.white], members[game.black]
    if game.result != "none":
        # Played (rated); TRF's W/D/L (played, not rated); a forfeit with its winner.
        kind = GAME_KINDS[game.kind]
        return [Pairing(white, black, game.result, kind, game.handicap)]
    # A forfeit both lost has no winner: a zero bye each.
    kind = Game.Kind.BYE_ZERO
    return [Pairing(white, None, "", kind), Pairing(black, None, "", kind)]


def _bye(bye: FileBye, members: dict[str, Member]) -> Pairing:
    if bye.kind == "pairing" and bye.points == 1.0:
        return Pairing(members[bye.player], None, "", Game.Kind.BYE_PAIRING)
    kind = BYE_KINDS.get(bye.points, Game.Kind.BYE_ZERO)
    return Pairing(members[bye.player], None, "", kind)


def _create_games(tournament: Tournament, results: ResultsFile, members: dict[str, Member]) -> None:
    rounds: dict[int, list[Pairing]] = defaultdict(list)
    for game in results.games:
        rounds[game.round] += _pairings(game, members)
    for bye in results.byes:
        rounds[bye.round].append(_bye(bye, members))
    for number in sorted(rounds):
        round_replace(tournament=tournament, round_number=number, pairings=rounds[number], by=None)


# --- the export -----------------------------------------------------------------------


def _external_key(member: Member) -> str:
    return member.import_key or member.egd_pin or member.fide_id or str(member.pk)


def tournament_to_results(
    *, tournament: Tournament, keys: Literal["position", "external"] = "position"
) -> ResultsFile:
    """The stored tournament as a `ResultsFile`, for the writers.

    `keys="position"`: players are numbered 1, 2, … in the order they were entered
    (an imported EGD table's places, a TRF's starting ranks). `keys="external"`:
    each player is his import key, EGD PIN, FIDE ID or member id (for JSON).
    """
    participants = list(
        tournament.participants.select_related("member", "member__club").order_by("pk")
    )
    games = list(tournament.games.order_by("round", "pk"))
    by_member: dict[int, Participant | None] = {p.member_id: p for p in participants}
    extra_ids = [
        m for g in games for m in (g.white_id, g.black_id) if m is not None and m not in by_member
    ]
    extra = Member.objects.select_related("club").in_bulk(extra_ids)
    order = [p.member for p in participants] + [extra[m] for m in dict.fromkeys(extra_ids)]
    key_of = {
        member.pk: (_external_key(member) if keys == "external" else str(at))
        for at, member in enumerate(order, start=1)
    }
    players = tuple(_file_player(m, by_member.get(m.pk), key_of[m.pk]) for m in order)
    file_games: list[FileGame] = []
    byes: list[FileBye] = []
    for game in games:
        if game.kind in Game.BYES:
            kind = "pairing" if game.kind == Game.Kind.BYE_PAIRING else "free"
            points = Game.BYE_POINTS[game.kind]
            byes.append(FileBye(game.round, key_of[game.white_id], points, kind))
            continue
        file_games.append(
            FileGame(
                round=game.round,
                white=key_of[game.white_id],
                black=key_of[game.black_id],  # type: ignore[index]
                result=game.result,  # type: ignore[arg-type]
                handicap=game.handicap,
                kind=FILE_GAME_KINDS.get(game.kind, "forfeit"),  # type: ignore[arg-type]
            )
        )
    return ResultsFile(
        details=_details(tournament, games),
        players=players,
        games=tuple(file_games),
        byes=tuple(byes),
    )


def _file_player(member: Member, participant: Participant | None, key: str) -> FilePlayer:
    grade = participant.grade if participant is not None else None
    grade = grade if grade is not None else member.grade
    declared = participant.rating_declared if participant is not None else None
    club = participant.team if participant is not None and participant.team else None
    return FilePlayer(
        key=key,
        family_name=member.family_name,
        given_name=member.given_name,
        grade=str(grade) if grade is not None else None,
        country=member.country or None,
        club=club or (member.club.name if member.club is not None else None),
        egd_pin=member.egd_pin or None,
        fide_id=member.fide_id or None,
        fide_rating=declared if declared is not None else member.fide_rating,
        title=member.fide_title or None,
        federation=member.federation or None,
        birth_date=member.birth_date,
        birth_year=member.birth_date.year if member.birth_date else member.birth_year,
        sex=member.sex or None,  # type: ignore[arg-type]
        place=participant.place if participant is not None else None,
    )


def _details(tournament: Tournament, games: list[Game]) -> TournamentDetails:
    from tournaments.timecontrol import adjusted_minutes

    overtime = {
        Tournament.Overtime.BYOYOMI: f"byoyomi {tournament.overtime_seconds}s",
        Tournament.Overtime.CANADIAN: (
            f"canadian {tournament.overtime_moves}/{tournament.overtime_seconds}s"
        ),
    }.get(tournament.overtime_kind)
    fischer = (
        float(tournament.overtime_seconds)
        if tournament.overtime_kind == Tournament.Overtime.FISCHER
        else None
    )
    rule = re.fullmatch(r"h(\d)", tournament.handicap_rule or "")
    description = f"{tournament.basic_time_minutes}'" + (
        f"+{tournament.overtime_seconds}''" if fischer is not None else ""
    )
    rounds = max([tournament.rounds, *(g.round for g in games)])
    return TournamentDetails(
        name=tournament.name,
        code=tournament.code or None,
        city=tournament.city,
        country=tournament.country,
        federation=tournament.federation,
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        tournament_class=tournament.tournament_class,
        handicap_rule=int(rule.group(1)) if rule else None,
        komi=float(tournament.komi) if tournament.komi is not None else None,
        time_control=TimeControl(
            basic_minutes=float(tournament.basic_time_minutes),
            overtime=overtime,
            fischer_increment_seconds=fischer,
            adjusted_minutes=(
                float(tournament.adjusted_minutes)
                if tournament.adjusted_minutes is not None
                else round(adjusted_minutes(tournament), 1)
            ),
            description=description,
        ),
        rounds=rounds,
        board_size=tournament.board_size if tournament.game == GameKind.GO else None,
        official=tournament.official,
        comment=tournament.comment,
        chief_arbiter=tournament.chief_arbiter,
        tournament_type=tournament.tournament_type,
    )


def problems_text(problems: Iterable[Problem]) -> list[str]:
    """Problems as lines, by line number (those without a line last)."""
    ordered = sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))
    return [f"{p.severity}: {p}" for p in ordered]


__all__ = [
    "ImportPreview",
    "PlayerMatch",
    "problems_text",
    "results_errors",
    "results_import",
    "results_preview",
    "tournament_to_results",
]
