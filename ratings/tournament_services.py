"""Writes of the club admin's tournament form: the tournament and the lists it goes to.

`tournaments.manage_services` saves the tournament (and checks who acts); these wrap it
and set the `ListTournament` links in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from ratings.models import ListTournament, RatingList
from tournaments import manage_services
from tournaments.models import Tournament


def tournament_lists_set(*, tournament: Tournament, rating_lists: Iterable[RatingList]) -> None:
    """Link the tournament to exactly these lists (the callers have checked who acts)."""
    wanted = {rl.pk for rl in rating_lists}
    ListTournament.objects.filter(tournament=tournament).exclude(rating_list_id__in=wanted).delete()
    have = set(
        ListTournament.objects.filter(tournament=tournament).values_list(
            "rating_list_id", flat=True
        )
    )
    ListTournament.objects.bulk_create(
        ListTournament(tournament=tournament, rating_list_id=pk) for pk in sorted(wanted - have)
    )


@transaction.atomic
def tournament_create_with_lists(
    *, tournament: Tournament, rating_lists: Iterable[RatingList], by: AbstractBaseUser
) -> Tournament:
    """Save an unsaved Tournament built by the form, as a draft, with its lists."""
    tournament = manage_services.tournament_create(tournament=tournament, by=by)
    tournament_lists_set(tournament=tournament, rating_lists=rating_lists)
    return tournament


@transaction.atomic
def tournament_update_with_lists(
    *,
    tournament: Tournament,
    changes: dict[str, Any],
    rating_lists: Iterable[RatingList],
    by: AbstractBaseUser,
) -> Tournament:
    """Change a draft's details and its lists."""
    current = manage_services.tournament_update(tournament=tournament, changes=changes, by=by)
    tournament_lists_set(tournament=current, rating_lists=rating_lists)
    return current
