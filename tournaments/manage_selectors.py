"""Reads for the club-admin pages: my clubs and tournaments, member search, the players he is
likely to tick (his club's roster and recent players), a round's boards, what the time
control means for rating."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite import authority, player_search
from clubsite.models import Club, Member
from ratings.systems.ufgo.grades import event_eligibility
from tournaments.models import Game, Participant, Tournament
from tournaments.timecontrol import adjusted_minutes, suggest_egf_class

CLASS_ORDER = {"A": 3, "B": 2, "C": 1}
ROSTER_LIMIT = 300
RECENT_TOURNAMENTS = 5


def clubs_administered(user: AbstractBaseUser) -> QuerySet[Club]:
    return authority.clubs_administered(user).order_by("name")


def tournaments_managed(user: AbstractBaseUser) -> QuerySet[Tournament]:
    """Every tournament of the clubs he administers (all, for staff), newest first."""
    qs = Tournament.objects.select_related("organiser").annotate(
        players=Count("participants", distinct=True)
    )
    if not user.is_staff:
        qs = qs.filter(organiser__admins=user)
    return qs.order_by("-end_date", "-id")


def member_search(query: str, *, exclude_tournament: Tournament, limit: int = 20) -> list[Member]:
    """The site search's members (a name in any script or spelling, EGD PIN, FIDE ID;
    the exact name first), not yet playing."""
    playing = Participant.objects.filter(tournament=exclude_tournament).values_list(
        "member_id", flat=True
    )
    return player_search.member_search(query, limit=limit, exclude=set(playing)).members


def tournament_members(tournament: Tournament) -> QuerySet[Member]:
    return Member.objects.filter(participations__tournament=tournament).order_by(
        "family_name", "given_name"
    )


def round_initial(tournament: Tournament, round_number: int) -> list[dict]:
    games = Game.objects.filter(tournament=tournament, round=round_number).order_by("id")
    return [
        {
            "white": g.white_id,
            "black": g.black_id,
            "kind": g.kind,
            "result": g.result,
            "handicap": g.handicap,
            "colour": "recorded" if g.colours_known else "unknown",
        }
        for g in games
    ]


def rounds_entered(tournament: Tournament) -> dict[int, int]:
    """Round → number of boards entered."""
    rows = (
        Game.objects.filter(tournament=tournament)
        .values("round")
        .annotate(n=Count("id"))
        .order_by("round")
    )
    return {row["round"]: row["n"] for row in rows}


def rounds_without_games(tournament: Tournament) -> list[int]:
    """Rounds 1..rounds with no board at all (a round of byes only is entered)."""
    entered = set(
        Game.objects.filter(tournament=tournament).values_list("round", flat=True).distinct()
    )
    return [r for r in range(1, tournament.rounds + 1) if r not in entered]


def empty_rounds_warning(tournament: Tournament) -> str:
    """The warning for rounds left empty, or "" when every round has boards."""
    empty = rounds_without_games(tournament)
    if not empty:
        return ""
    return ngettext(
        "Round %(rounds)s has no games. Enter its boards (byes count) or lower the number "
        "of rounds.",
        "Rounds %(rounds)s have no games. Enter their boards (byes count) or lower the "
        "number of rounds.",
        len(empty),
    ) % {"rounds": ", ".join(str(r) for r in empty)}


@dataclass(frozen=True)
class TimeControlAdvice:
    adjusted: float
    egf_class: str | None
    egf_reason: str
    ufgo_rated: bool
    ufgo_reason: str
    class_warning: str  # the chosen class is stronger than the time control allows


def time_control_advice(tournament: Tournament) -> TimeControlAdvice:
    """EGF class (egf.md §8) and UFGO eligibility (1.7) for the tournament's time control;
    an unknown one (a results file that said nothing readable) allows everything."""
    if not tournament.time_control_known:
        unknown = _("The time control is not known: no time-control rule blocks rating.")
        return TimeControlAdvice(
            adjusted=0.0,
            egf_class=tournament.tournament_class,
            egf_reason=unknown,
            ufgo_rated=True,
            ufgo_reason=unknown,
            class_warning="",
        )
    suggestion = suggest_egf_class(tournament)
    verdict = event_eligibility(tournament.basic_time_minutes)
    if verdict.rated and verdict.keep_ik_above is None:
        ufgo_reason = _("%(m)d minutes of basic time: UFGO rates every player.") % {
            "m": tournament.basic_time_minutes
        }
    elif verdict.rated:
        ufgo_reason = _(
            "%(m)d minutes of basic time: UFGO rates it, but players above %(ik)d keep "
            "their rating (they need 60 minutes)."
        ) % {"m": tournament.basic_time_minutes, "ik": verdict.keep_ik_above}
    else:
        ufgo_reason = _("%(m)d minutes of basic time: under 45 minutes, UFGO does not rate it.") % {
            "m": tournament.basic_time_minutes
        }
    chosen = tournament.tournament_class
    allowed = CLASS_ORDER.get(suggestion.klass or "", 0)
    warning = ""
    if chosen and CLASS_ORDER.get(chosen, 0) > allowed:
        warning = _("Class %(chosen)s is stronger than this time control allows (%(allowed)s).") % {
            "chosen": chosen,
            "allowed": suggestion.klass or _("not rated"),
        }
    return TimeControlAdvice(
        adjusted=adjusted_minutes(tournament),
        egf_class=suggestion.klass,
        egf_reason=suggestion.reason,
        ufgo_rated=verdict.rated,
        ufgo_reason=ufgo_reason,
        class_warning=warning,
    )


def _name_filter(query: str) -> Q:
    condition = Q()
    for word in query.split():
        condition &= (
            Q(family_name__icontains=word)
            | Q(given_name__icontains=word)
            | Q(native_name__icontains=word)
        )
    return condition


def club_roster(tournament: Tournament, query: str = "") -> QuerySet[Member]:
    """The organising club's members not yet in the tournament, by name; `query` filters."""
    return (
        Member.objects.filter(club_id=tournament.organiser_id)
        .exclude(participations__tournament=tournament)
        .filter(_name_filter(query))
        .order_by("family_name", "given_name", "pk")[:ROSTER_LIMIT]
    )


def recent_club_players(tournament: Tournament, query: str = "") -> QuerySet[Member]:
    """Members (of any club) who played the organiser's last few other tournaments, not yet
    in this one; the most regular first."""
    recent = (
        Tournament.objects.filter(organiser_id=tournament.organiser_id)
        .exclude(pk=tournament.pk)
        .order_by("-end_date", "-pk")
        .values_list("pk", flat=True)[:RECENT_TOURNAMENTS]
    )
    played = Participant.objects.filter(tournament_id__in=list(recent)).values("member_id")
    return (
        Member.objects.filter(pk__in=played)
        .exclude(participations__tournament=tournament)
        .filter(_name_filter(query))
        .annotate(
            recent_count=Count(
                "participations", filter=Q(participations__tournament_id__in=list(recent))
            )
        )
        .select_related("club")
        .order_by("-recent_count", "family_name", "given_name")[:ROSTER_LIMIT]
    )
