"""Results files imported for a rating list.

`tournaments.importing` matches players and saves the table; it knows a rating list only
as a `ListTarget`. This module builds that target from a `RatingList` (who the list
already has, the `ListTournament` link) and is what the import pages and the
`import_tournament` command call, with the rating list itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from clubsite.batches import in_batches
from clubsite.models import Club
from ratings.models import ListTournament, RatingEntry, RatingList
from ratings.recompute import rules
from ratings.submissions.list_approval import check_lists_accept
from ratings.systems.registry import SYSTEMS
from tournaments import importing
from tournaments.formats.model import ResultsFile
from tournaments.models import Tournament


@dataclass(frozen=True)
class RatingListTarget:
    """A `RatingList` as `tournaments.importing.ListTarget`."""

    rating_list: RatingList

    @property
    def name(self) -> str:
        return self.rating_list.name

    @property
    def game(self) -> str:
        return self.rating_list.game

    @property
    def system(self) -> str:
        return self.rating_list.system

    @property
    def needs_grade(self) -> bool:
        system = SYSTEMS.get(self.rating_list.system)
        return system is not None and system.needs_grade

    @property
    def uses_declared_start(self) -> bool:
        """UFGO D2, ORR D22: a newcomer may start from the rating his file declares."""
        return rules.declared_start_used(self.rating_list.system)

    def members_listed(self, member_ids: list[int]) -> set[int]:
        entries = RatingEntry.objects.filter(rating_list=self.rating_list).only("member_id")
        return {e.member_id for e in in_batches(entries, "member_id", member_ids)}

    def link(self, tournament: Tournament) -> None:
        ListTournament.objects.create(rating_list=self.rating_list, tournament=tournament)


def list_target(rating_list: RatingList | None) -> RatingListTarget | None:
    return RatingListTarget(rating_list) if rating_list is not None else None


def results_preview(
    *,
    results: ResultsFile,
    rating_list: RatingList | None,
    organiser: Club,
    fmt: str | None = None,
) -> importing.ImportPreview:
    """Who each file player is, who is new to the list, what the import would do."""
    return importing.results_preview(
        results=results, organiser=organiser, fmt=fmt, target=list_target(rating_list)
    )


def results_errors(
    *,
    results: ResultsFile,
    rating_list: RatingList | None,
    organiser: Club,
    choices: Mapping[str, importing.Choice] | None = None,
    fmt: str | None = None,
) -> list[str]:
    """Why `results_import` would refuse the file (empty: it would save it). Writes nothing."""
    return importing.results_errors(
        results=results, organiser=organiser, target=list_target(rating_list),
        choices=choices, fmt=fmt,
    )  # fmt: skip


def results_import(
    *,
    results: ResultsFile,
    rating_list: RatingList | None,
    organiser: Club,
    by: AbstractBaseUser | None,
    choices: Mapping[str, importing.Choice] | None = None,
    status: str = Tournament.Status.SUBMITTED,
    fmt: str | None = None,
    source: str = "",
    host: Club | None = None,
    host_external: bool = False,
) -> Tournament:
    """Save the file as a tournament linked to the list (if rated), all or nothing."""
    if rating_list is not None:
        check_lists_accept([rating_list], organiser, by)
    return importing.results_import(
        results=results, organiser=organiser, by=by, choices=choices, status=status,
        fmt=fmt, source=source, target=list_target(rating_list), host=host,
        host_external=host_external,
    )  # fmt: skip
