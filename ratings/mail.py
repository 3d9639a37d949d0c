"""The e-mail of a results table's workflow, written in each recipient's language.

`tournaments.review.notifications.event_mail_queue` queues `ratings.tasks.send_tournament_event_mail`
with a `TournamentLog` id after the commit; the task calls `tournament_event_mail_send`:

- submitted: the referees of the table's lists;
- approved: the organising club's admins, with each list's rating changes, and each
  player who has an account and asked for it, with his own change;
- rejected (with the referee's comment) and reopened (with the reason): the club's admins;
- a note: a club admin's to the referees of the table's lists, anyone else's to the
  club's admins.

Nobody gets mail about his own step, and each kind can be switched off in "my profile"
(`clubsite.models.Profile`). The approval mail waits for the lists' recompute: while a
list is still pending the service raises `RatingsPending` and the task tries again. A step
nobody is to hear of is done at once: no rating changes read, nothing waited for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import EmailMessage, get_connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member, Profile
from ratings.display.formatting import format_change, format_rating
from ratings.models import ListTournament, RatingHistory, RatingList
from tournaments.models import Tournament, TournamentLog

Action = TournamentLog.Action
# The profile flag that turns each kind of mail off.
FLAG = {
    Action.SUBMITTED: "mail_submitted",
    Action.APPROVED: "mail_approved",
    Action.REJECTED: "mail_rejected",
    Action.REOPENED: "mail_reopened",
    Action.NOTE: "mail_note",
}
RATING_FLAG = "mail_rating"


class RatingsPending(Exception):
    """A list of the approved table has not been recomputed yet; try again later."""


@dataclass(frozen=True)
class ChangeLine:
    member_id: int
    name: str
    before: str
    after: str
    change: str
    rated: bool


@dataclass(frozen=True)
class ListSummary:
    rating_list: RatingList
    lines: list[ChangeLine]
    not_rated_reason: str


def tournament_event_mail_send(*, log_id: int, wait_for_ratings: bool = True) -> int:
    """Send the mail of one workflow step; returns how many messages went out.
    With `wait_for_ratings` an approval whose lists are still recomputing raises
    `RatingsPending` (the last attempt passes False and sends what there is)."""
    log = (
        TournamentLog.objects.select_related("tournament__organiser", "by")
        .filter(pk=log_id)
        .first()
    )
    if log is None or log.action not in FLAG:
        return 0
    tournament = log.tournament
    if log.action == Action.SUBMITTED or _club_note(log):
        recipients = get_user_model().objects.filter(refereed_lists__tournaments=tournament)
    else:
        recipients = tournament.organiser.admins.all()
    staff = _wanting(recipients, FLAG[log.action], exclude=log.by_id)
    players = _players_wanting(tournament) if log.action == Action.APPROVED else []
    if not staff and not players:
        return 0  # nobody to write to: no rating changes to read, nor to wait for
    summaries: list[ListSummary] = []
    if log.action == Action.APPROVED:
        if wait_for_ratings and _lists_pending(tournament):
            raise RatingsPending(tournament.pk)
        summaries = _summaries(tournament)
    messages = [
        _message(
            user,
            profile,
            f"mail/{log.action}",
            {"log": log, "tournament": tournament, "summaries": summaries},
        )
        for user, profile in staff
    ]
    messages += _player_messages(tournament, summaries, players)
    with get_connection() as connection:
        return connection.send_messages(messages) or 0


def _club_note(log: TournamentLog) -> bool:
    """A note the organising club's admin wrote (not staff): for the referees."""
    by = log.by
    if log.action != Action.NOTE or by is None or by.is_staff:
        return False
    return log.tournament.organiser.admins.filter(pk=by.pk).exists()


def _lists_pending(tournament: Tournament) -> bool:
    return tournament.rating_lists.filter(pending_from__isnull=False).exists()


def _summaries(tournament: Tournament) -> list[ListSummary]:
    summaries = []
    # A list that refused the table (issue 14: each list decides) rated nothing in it.
    links = (
        ListTournament.objects.filter(tournament=tournament)
        .exclude(decision=ListTournament.Decision.REJECTED)
        .select_related("rating_list")
    )
    for link in links.order_by("rating_list__name"):
        rating_list = link.rating_list
        rows = (
            RatingHistory.objects.filter(rating_list=rating_list, tournament=tournament)
            .select_related("member")
            .order_by("-after", "member__family_name")
        )
        lines = [
            ChangeLine(
                member_id=row.member_id,
                name=row.member.full_name,
                before=format_rating(row.rating_in, rating_list.system),
                after=format_rating(row.after, rating_list.system),
                change=format_change(row.change, rating_list.system),
                rated=row.rated,
            )
            for row in rows
        ]
        summaries.append(ListSummary(rating_list, lines, link.not_rated_reason))
    return summaries


def _players_wanting(tournament: Tournament) -> list[tuple[AbstractBaseUser, Profile]]:
    """The table's players with an account who asked for their rating changes."""
    players = Member.objects.filter(participations__tournament=tournament, user__isnull=False)
    users = get_user_model().objects.filter(member__in=players)
    return _wanting(users, RATING_FLAG, exclude=None)


def _player_messages(
    tournament: Tournament,
    summaries: list[ListSummary],
    players: list[tuple[AbstractBaseUser, Profile]],
) -> list[EmailMessage]:
    """Each of these players (`_players_wanting`): his own line in each list."""
    messages = []
    for user, profile in players:
        own = [
            (summary.rating_list, line)
            for summary in summaries
            for line in summary.lines
            if line.member_id == user.member.pk
        ]
        if own:
            messages.append(
                _message(
                    user,
                    profile,
                    "mail/rating_changed",
                    {"tournament": tournament, "member": user.member, "lines": own},
                )
            )
    return messages


def _wanting(
    users: Iterable[AbstractBaseUser], flag: str, *, exclude: int | None
) -> list[tuple[AbstractBaseUser, Profile]]:
    """The active users with an address who did not switch this kind of mail off."""
    chosen = []
    seen: set[int] = set()
    for user in users:
        if user.pk in seen or user.pk == exclude or not user.is_active or not user.email:
            continue
        seen.add(user.pk)
        profile = Profile.objects.filter(user=user).first() or Profile(user=user)
        if getattr(profile, flag):
            chosen.append((user, profile))
    return chosen


def _message(
    user: AbstractBaseUser, profile: Profile, template: str, context: dict[str, object]
) -> EmailMessage:
    language = profile.language or settings.LANGUAGE_CODE
    with translation.override(language):
        context = {**context, "user": user, "site_url": settings.SITE_URL.rstrip("/")}
        context["links"] = _links(context)
        subject = render_to_string(f"{template}_subject.txt", context)
        body = render_to_string(f"{template}.txt", context)
    return EmailMessage(
        subject=" ".join(subject.split()),
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
    )


def _links(context: dict[str, object]) -> dict[str, str]:
    site = str(context["site_url"])
    tournament = context["tournament"]
    assert isinstance(tournament, Tournament)
    links = {
        "review": site + reverse("referee_review", args=[tournament.pk]),
        "manage": site + reverse("manage_participants", args=[tournament.pk]),
        "page": site + reverse("tournament_detail", args=[tournament.pk]),
        "profile": site + reverse("my_profile"),
    }
    member = context.get("member")
    if isinstance(member, Member):
        links["player"] = site + reverse("player_detail", args=[member.pk])
    return links
