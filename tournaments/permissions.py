"""Who may do what with a tournament. Views and services ask these, never the templates alone."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Tournament

User = AbstractBaseUser | AnonymousUser


def is_club_admin(user: User, tournament: Tournament) -> bool:
    """Admins of the organising club (and staff) edit, submit and reopen its tables."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return tournament.organiser.admins.filter(pk=user.pk).exists()


def is_referee(user: User, tournament: Tournament) -> bool:
    """Referees of any rating list the table is submitted to (and staff) approve or reject it."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return tournament.rating_lists.filter(referees=user).exists()


def can_view(user: User, tournament: Tournament) -> bool:
    """Drafts are private to the club's admins and referees; everything else is public."""
    if tournament.status != Tournament.Status.DRAFT:
        return True
    return is_club_admin(user, tournament) or is_referee(user, tournament)
