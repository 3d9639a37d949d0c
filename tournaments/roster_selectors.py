"""The players a club admin is likely to tick on a tournament's players page: his
club's roster and the members who played the club's recent tournaments."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from clubsite.models import Member
from tournaments.models import Participant, Tournament

ROSTER_LIMIT = 300
RECENT_TOURNAMENTS = 5


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
