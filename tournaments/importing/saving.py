"""The import (`results_import`): the tournament, new members, participants and games,
saved in one transaction.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.authority import clubs_administered, may_credit_club
from clubsite.fields import parse_grade
from clubsite.input_checks import country_or_blank
from clubsite.models import Club, Member
from tournaments import messages
from tournaments.formats.model import (
    FileBye,
    FileGame,
    FilePlayer,
    ResultsFile,
)
from tournaments.import_identity import identity_errors
from tournaments.importing.common import (
    BYE_KINDS,
    FIDE_COUNTRIES,
    GAME_KINDS,
    MAX_SMALL,
    Choice,
    ListTarget,
    _declared,
    _format_code,
    club_index,
    club_named,
)
from tournaments.importing.details import tournament_from_details
from tournaments.importing.kept import tournament_keep_file
from tournaments.importing.matching import ImportPreview, _full_name
from tournaments.importing.preview import grade_errors, results_preview, table_errors
from tournaments.messages import said, stored_lines
from tournaments.models import Game, MemberProposal, Participant, Tournament, TournamentLog
from tournaments.review.proposals import fide_rating_record, proposal_record, proposals_record
from tournaments.services import Pairing, round_replace

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
        table_errors(results, target, preview.game, list(preview.players))
        + errors
        + identity_errors(results.players, resolved)
        + grade_errors(results, target, resolved, listed, code)
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
    host: Club | None = None,
    host_external: bool = False,
) -> Tournament:
    """Save the file as a tournament, in one transaction: all of it or nothing.

    `host` is the club that held the event when it is not the organiser (the club that
    enters the table); `host_external` says no club here held it.

    `choices` settles players the preview could not (file key → member id or "new")
    and may override its matches. Raises ValidationError listing every player still
    undecided, and every other reason the file cannot be saved.
    """
    if status not in (Tournament.Status.SUBMITTED, Tournament.Status.DRAFT):
        raise ValidationError(_("An import is saved as a draft or submitted."))
    if by is not None and not (by.is_staff or organiser.admins.filter(pk=by.pk).exists()):
        raise PermissionDenied(_("Only the organising club's admins import its results."))
    if host is not None and by is not None and not may_credit_club(by, host):
        raise ValidationError(
            _("%(club)s is not a club you administer; it cannot be named as the organiser.")
            % {"club": host.name}
        )
    preview = results_preview(results=results, target=target, organiser=organiser, fmt=fmt)
    resolved, errors = _import_check(preview, choices, fmt)
    if errors:
        raise ValidationError(errors)
    code = _format_code(results, fmt)
    with transaction.atomic():
        tournament = tournament_from_details(
            results.details, preview.game, organiser, code, listed=len(results.players)
        )
        if host is not None or host_external:
            tournament.host = None if host_external else host
            tournament.host_external = host_external
            tournament.save(update_fields=["host", "host_external"])
        members = _create_members(results.players, resolved, code, by, tournament, source)
        _propose_identities(results.players, members, resolved, tournament, by, source)
        _record_fide_ratings(results.players, members, resolved, tournament.start_date)
        _create_participants(tournament, results.players, members, code)
        _create_games(tournament, results, members)
        tournament_keep_file(tournament=tournament, results=results)
        linked = preview.linked_for_rating
        if linked:
            target.link(tournament)
        if status == Tournament.Status.SUBMITTED:
            tournament.status = Tournament.Status.SUBMITTED
            tournament.submitted_at = timezone.now()
            tournament.submitted_by = by
            tournament.save(update_fields=["status", "submitted_at", "submitted_by"])
        lines = _log_lines(preview, source, linked)
        TournamentLog.objects.create(
            tournament=tournament,
            action=TournamentLog.Action.IMPORTED,
            by=by,
            comment="\n".join(lines),
            params={"lines": stored_lines(lines)},
        )
    return tournament


def _log_lines(preview: ImportPreview, source: str, linked: bool) -> list[str]:
    counts = {
        "players": len(preview.players),
        "new": sum(1 for m in preview.players if m.status != "matched"),
        "games": len(preview.results.games),
    }
    lines = [
        said(messages.IMPORTED, source=source, **counts)
        if source
        else said(messages.IMPORTED_FROM_FILE, **counts)
    ]
    if not linked:
        lines.append(said(messages.NOT_LINKED))
    lines += list(preview.checks)
    return lines


def _split_name(player: FilePlayer, fmt: str | None) -> tuple[str, str]:
    """Family and given name; CSV and JSON give one name, written "Family Given"."""
    if player.given_name or fmt not in ("csv", "json"):
        return (player.family_name or player.key), player.given_name
    full = _full_name(player, fmt) or player.key
    family, _space, given = full.partition(" ")
    return family, given


def _create_members(
    players: Iterable[FilePlayer],
    resolved: dict[str, Member | None],
    fmt: str | None,
    by: AbstractBaseUser | None,
    tournament: Tournament,
    source: str,
) -> dict[str, Member]:
    """New members for the players the file brings. One joins the club the file names only
    if the importer administers it (the command's operator: any); for another club's
    roster the club is proposed, to that club's admins or a registrar (issue 54)."""
    clubs = club_index(Club.objects.all())
    own = None if by is None else set(clubs_administered(by).values_list("pk", flat=True))
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
        club = club_named(clubs, player.club, tournament.organiser)
        joins = club if club is not None and (own is None or club.pk in own) else None
        member = Member(
            family_name=family[:100],
            given_name=given[:100],
            grade=parse_grade(player.grade),
            country=country_or_blank(country),
            club=joins,
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
        member._history_user = by  # type: ignore[attr-defined]
        member._change_reason = _("Created by the import of %(name)s (#%(id)d)") % {  # type: ignore[attr-defined]
            "name": tournament.name,
            "id": tournament.pk,
        }
        member.save()
        members[player.key] = member
        if club is not None and joins is None:
            proposal_record(
                tournament=tournament, member=member, field="club", value=club, by=by,
                source=source,
            )  # fmt: skip
    return members


def _birth_year(player: FilePlayer) -> int | None:
    """The year alone, kept only when the file gives no full date."""
    if player.birth_date is not None or player.birth_year is None:
        return None
    return player.birth_year if 0 < player.birth_year <= MAX_SMALL else None


def _propose_identities(
    players: Iterable[FilePlayer],
    members: dict[str, Member],
    resolved: dict[str, Member | None],
    tournament: Tournament,
    by: AbstractBaseUser | None,
    source: str,
) -> None:
    """What the file says of a member already here (his PIN, FIDE ID, title, federation,
    birth year, and his FIDE rating from the table's start) is a proposal tied to the
    table: nothing about him changes until a list approves it (a draft must not move the
    rating his ORR start is taken from; `tournaments.review.proposals`)."""
    for player in players:
        if resolved.get(player.key) is None:
            continue  # created from the file just now
        member = members[player.key]
        values: dict[str, object] = {}
        for field, value in (
            ("fide_title", (player.title or "")[:3]),
            ("federation", (player.federation or "").upper()[:3]),
            ("egd_pin", player.egd_pin or ""),
            ("fide_id", player.fide_id or ""),
        ):
            if value and value != getattr(member, field):
                values[field] = value
        year = _birth_year(player)
        if year and member.birth_date is None and member.birth_year != year:
            values["birth_year"] = year
        if (rating := _fide_rating(player)) is not None:
            # Compared with the one on record from the table's start (`proposal_record`).
            values[MemberProposal.Field.FIDE_RATING] = rating
        if values:
            proposals_record(
                tournament=tournament, member=member, values=values, by=by, source=source
            )


def _record_fide_ratings(
    players: Iterable[FilePlayer],
    members: dict[str, Member],
    resolved: dict[str, Member | None],
    valid_from: dt.date,
) -> None:
    """A FIDE rating a file gives is valid from its tournament's start (issue 20). Of a
    member created from the file it is kept at once, with the rest of what the file says
    of him; of anyone already here it is proposed (`_propose_identities`)."""
    for player in players:
        rating = _fide_rating(player)
        if rating is None or resolved.get(player.key) is not None:
            continue
        member = members[player.key]
        shown = member.fide_rating
        fide_rating_record(member=member, rating=rating, valid_from=valid_from)
        if member.fide_rating != shown:
            member.save(update_fields=["fide_rating"])


def _fide_rating(player: FilePlayer) -> int | None:
    rating = player.fide_rating
    return round(rating) if rating is not None and 0 < rating <= MAX_SMALL else None


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
        return [
            Pairing(white, black, game.result, kind, game.handicap,
                    colours_known=game.colours_known)
        ]  # fmt: skip
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
