"""A stored tournament as a `ResultsFile` (`tournament_to_results`), for the writers in
`tournaments.formats`.
"""

from __future__ import annotations

import re
from typing import Literal

from clubsite.models import GameKind, Member
from tournaments.formats.model import (
    FileBye,
    FileGame,
    FilePlayer,
    ResultsFile,
    TimeControl,
    TournamentDetails,
)
from tournaments.importing.common import FILE_GAME_KINDS
from tournaments.models import Game, Participant, Tournament
from tournaments.timecontrol import adjusted_minutes, exact_minutes, minutes_text

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
                colours_known=game.colours_known,
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


def _time_control(
    tournament: Tournament, overtime: str | None, fischer: float | None, description: str
) -> TimeControl | None:
    """The file's own words where it gave them; nothing where the time control is unknown
    (no `122 60'`, no invented `TM[82.5]`)."""
    written = tournament.time_control_text or None
    if not tournament.time_control_known:
        return TimeControl(description=written) if written else None
    return TimeControl(
        basic_minutes=float(tournament.basic_time_minutes),
        overtime=overtime,
        fischer_increment_seconds=fischer,
        adjusted_minutes=(
            float(tournament.adjusted_minutes)
            if tournament.adjusted_minutes is not None
            # Rounded down, so a re-import never crosses a threshold the table did not.
            else float(exact_minutes(adjusted_minutes(tournament)) or 0)
        ),
        description=written or description,
    )


def _details(tournament: Tournament, games: list[Game]) -> TournamentDetails:
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
    description = f"{minutes_text(tournament.basic_time_minutes)}'" + (
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
        tournament_class=tournament.file_class or tournament.tournament_class,
        handicap_rule=int(rule.group(1)) if rule else None,
        komi=float(tournament.komi) if tournament.komi is not None else None,
        time_control=_time_control(tournament, overtime, fischer, description),
        rounds=rounds,
        board_size=tournament.board_size if tournament.game == GameKind.GO else None,
        official=tournament.official,
        participants=tournament.participants_declared,
        comment=tournament.comment,
        chief_arbiter=tournament.chief_arbiter,
        tournament_type=tournament.tournament_type,
    )
