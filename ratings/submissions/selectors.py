"""Reads for the referee's pages: the queue, a table's warnings, the recompute status."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, F, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite.duplicates import likely_duplicate_pairs
from ratings.models import ListTournament, RatingEntry, RatingList, counted_links
from tournaments.handicaps import handicap_warnings
from tournaments.manage_selectors import empty_rounds_warning, time_control_advice
from tournaments.messages import PARTICIPANTS_BELOW_LISTED, render
from tournaments.models import Game, Tournament, TournamentLog
from tournaments.review.pairing_checks import pairing_warnings


def refereed_lists(user: AbstractBaseUser) -> QuerySet[RatingList]:
    if not user.is_authenticated:
        return RatingList.objects.none()
    if user.is_staff:
        return RatingList.objects.order_by("name")
    return RatingList.objects.filter(referees=user).order_by("name")


def _refereed_tournaments(user: AbstractBaseUser) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related(
        "organiser", "host", "submitted_by", "decided_by"
    ).annotate(players=Count("participants", distinct=True))
    if not user.is_staff:
        ids = ListTournament.objects.filter(rating_list__referees=user).values("tournament_id")
        qs = qs.filter(pk__in=ids)
    return qs


def referee_queue(user: AbstractBaseUser) -> QuerySet[Tournament]:
    """Tables waiting for his decision on a list he referees (staff: on any list, or
    without a list), oldest submission first."""
    undecided = ListTournament.objects.filter(decision=ListTournament.Decision.UNDECIDED)
    if not user.is_staff:
        undecided = undecided.filter(rating_list__referees=user)
    waiting = Q(pk__in=undecided.values("tournament_id"))
    if user.is_staff:
        waiting |= Q(list_links__isnull=True)
    return (
        _refereed_tournaments(user)
        .filter(waiting, status=Tournament.Status.SUBMITTED)
        .prefetch_related("rating_lists")
        .order_by("submitted_at", "id")
    )


def referee_recent(user: AbstractBaseUser, limit: int = 15) -> QuerySet[ListTournament]:
    """His latest decisions, list by list."""
    decided = ListTournament.objects.exclude(decision=ListTournament.Decision.UNDECIDED)
    if not user.is_staff:
        decided = decided.filter(rating_list__referees=user)
    return decided.select_related(
        "tournament", "tournament__organiser", "tournament__host", "rating_list", "decided_by"
    ).order_by("-decided_at", "-id")[:limit]


ANSWERS = (TournamentLog.Action.APPROVED, TournamentLog.Action.REJECTED,
           TournamentLog.Action.REOPENED, TournamentLog.Action.NOTE)  # fmt: skip


def club_notes_unanswered(user: AbstractBaseUser, limit: int = 20) -> list[TournamentLog]:
    """Notes the organising clubs wrote on the tables of his lists (any state: an approved
    table too) that no referee has answered since, by a note or a decision; newest first."""
    tables = _refereed_tournaments(user).values("pk")
    notes = list(
        TournamentLog.objects.filter(
            action=TournamentLog.Action.NOTE, tournament__in=tables,
            tournament__organiser__admins=F("by"), by__is_staff=False,
        )
        .select_related("tournament", "tournament__organiser", "by")
        .order_by("-at", "-id")[:200]
    )  # fmt: skip
    if not notes:
        return []
    answered: dict[int, tuple] = {}
    later = TournamentLog.objects.filter(
        tournament__in={n.tournament_id for n in notes}, action__in=ANSWERS
    ).exclude(
        Q(by__isnull=False, by__is_staff=False, by__administered_clubs=F("tournament__organiser"))
    )
    for tournament_id, at, pk in later.values_list("tournament_id", "at", "id"):
        answered[tournament_id] = max(answered.get(tournament_id, (at, pk)), (at, pk))
    waiting = [n for n in notes if answered.get(n.tournament_id, (n.at, -1)) < (n.at, n.pk)]
    return waiting[:limit]


@dataclass(frozen=True)
class Warning:
    level: str  # "warning" | "info"
    text: str
    names: tuple[str, ...] = ()


def review_warnings(tournament: Tournament) -> list[Warning]:
    """What a referee should look at before approving: unrated games, the class for the
    time control, players new to each list, a declared count of participants below the
    players listed, rounds left empty, players without games."""
    warnings: list[Warning] = []
    games = list(Game.objects.filter(tournament=tournament).only("kind", "white_id", "black_id"))
    unrated = [g for g in games if g.kind != Game.Kind.PLAYED]
    if unrated:
        forfeits = sum(1 for g in unrated if g.kind == Game.Kind.FORFEIT)
        played_unrated = sum(1 for g in unrated if g.kind == Game.Kind.UNRATED)
        byes = len(unrated) - forfeits - played_unrated
        counted = [
            ngettext("%(n)d forfeit", "%(n)d forfeits", forfeits) % {"n": forfeits},
            ngettext("%(n)d bye", "%(n)d byes", byes) % {"n": byes},
        ]
        if played_unrated:
            counted.append(
                ngettext(
                    "%(n)d game played but not rated",
                    "%(n)d games played but not rated",
                    played_unrated,
                )
                % {"n": played_unrated}
            )
        parts = ", ".join(counted)
        warnings.append(
            Warning(
                "info",
                ngettext(
                    "%(n)d of %(total)d games is not rated: %(parts)s.",
                    "%(n)d of %(total)d games are not rated: %(parts)s.",
                    len(unrated),
                )
                % {"n": len(unrated), "total": len(games), "parts": parts},
            )
        )
    if not any(g.kind == Game.Kind.PLAYED for g in games):
        warnings.append(
            Warning("warning", _("The table has no rated game: no rating changes through it."))
        )
    if not tournament.time_control_known:
        written = tournament.time_control_text
        warnings.append(
            Warning(
                "warning",
                _(
                    "The time control is not known (the file wrote %(text)s): no time-control "
                    "rule blocks rating. Check it is long enough for the lists."
                )
                % {"text": f"“{written}”" if written else _("nothing")},
            )
        )
    links = list(ListTournament.objects.filter(tournament=tournament).select_related("rating_list"))
    systems = {link.rating_list.system for link in links}
    advice = time_control_advice(tournament)
    if advice.class_warning and "egf" in systems:
        warnings.append(Warning("warning", f"{advice.class_warning} {advice.egf_reason}"))
    if "ufgo" in systems and (not advice.ufgo_rated or "keep" in advice.ufgo_reason):
        warnings.append(Warning("warning", advice.ufgo_reason))
    participants = list(tournament.participants.select_related("member"))
    for link in links:
        listed = set(
            RatingEntry.objects.filter(
                rating_list=link.rating_list,
                member_id__in=[p.member_id for p in participants],
                rating__isnull=False,
            ).values_list("member_id", flat=True)
        )
        new = [p.member.full_name for p in participants if p.member_id not in listed]
        if new:
            warnings.append(
                Warning(
                    "info",
                    ngettext(
                        "%(n)d player is new to %(list)s:",
                        "%(n)d players are new to %(list)s:",
                        len(new),
                    )
                    % {"n": len(new), "list": link.rating_list.name},
                    tuple(sorted(new)),
                )
            )
    declared = tournament.participants_declared_below_listed
    if declared is not None and declared < len(participants):  # orr.md Part D
        values = {"declared": declared, "listed": len(participants)}
        warnings.append(Warning("warning", render(PARTICIPANTS_BELOW_LISTED, values)))
    empty = empty_rounds_warning(tournament)
    if empty:
        warnings.append(Warning("warning", empty))
    playing = {g.white_id for g in games} | {g.black_id for g in games}
    idle = [p.member.full_name for p in participants if p.member_id not in playing]
    if idle:
        warnings.append(Warning("warning", _("Players without a game:"), tuple(sorted(idle))))
    warnings += [Warning("warning", text) for text in handicap_warnings(tournament)]
    warnings += [Warning("warning", text) for text in pairing_warnings(tournament)]
    twice = [
        f"{one.full_name} (#{one.pk}) – {other.member.full_name} (#{other.member.pk}): {other.text}"
        for one, other in likely_duplicate_pairs(p.member for p in participants)
    ]
    if twice:
        warnings.append(Warning("warning", _("Likely one person entered twice:"), tuple(twice)))
    return warnings


@dataclass(frozen=True)
class ListStatus:
    link: ListTournament
    waiting: bool
    counted: bool = False  # the list approved the table

    @property
    def rating_list(self) -> RatingList:
        return self.link.rating_list


def recompute_status(tournament: Tournament) -> list[ListStatus]:
    """Per list: is the approved table rated yet? `waiting` while a recompute is due."""
    links = ListTournament.objects.filter(tournament=tournament).select_related(
        "rating_list", "decided_by"
    )
    counted = set(links.filter(counted_links()).values_list("pk", flat=True))
    statuses = []
    for link in links.order_by("rating_list__name"):
        rating_list = link.rating_list
        busy = rating_list.state in (RatingList.State.WAITING, RatingList.State.RECOMPUTING)
        unrated = link.rated_at is None and not link.not_rated_reason
        waiting = link.pk in counted and (
            busy or (unrated and rating_list.state != RatingList.State.FAILED)
        )
        statuses.append(ListStatus(link, waiting, link.pk in counted))
    return statuses
