"""Who may do what to which object: the one place (issue 54, docs/authority.md).

Every rule of docs/authority.md's table is a `rules` permission here, under the action's
name in that table ("member.change_identity", "table.reopen", ...). Views, services,
commands acting `--as` someone and templates (`{% has_perm %}`) all ask these, so a page,
its POST and the service under it cannot disagree; `tests/trust/test_authority_matrix.py`
reads the table and checks every URL against it.

This module sits at the bottom of the domain (clubsite), below the tournaments and the
lists, so it reaches them through their relations (`tournament.rating_lists`,
`tournament.list_links`, `user.refereed_lists`), never by importing them.
"""

from __future__ import annotations

from typing import Any

import rules
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet

from clubsite.models import Club, Member, Registrar

User = AbstractBaseUser | AnonymousUser
# ratings.models.ListTournament.Decision, by value (this module cannot import the lists)
APPROVED, UNDECIDED = "approved", ""


def _signed_in(user: Any) -> bool:
    return user is not None and bool(user.is_authenticated)


# --- roles ------------------------------------------------------------------------------


@rules.predicate
def is_staff(user: Any) -> bool:
    return _signed_in(user) and bool(user.is_staff)


@rules.predicate
def admins_club(user: Any, club: Club | None) -> bool:
    return _signed_in(user) and club is not None and club.admins.filter(pk=user.pk).exists()


@rules.predicate
def admins_members_club(user: Any, member: Member) -> bool:
    return (
        _signed_in(user)
        and member.club_id is not None
        and Club.objects.filter(pk=member.club_id, admins=user).exists()
    )


def registrar_scopes(user: Any) -> QuerySet[Registrar]:
    if not _signed_in(user):
        return Registrar.objects.none()
    return Registrar.objects.filter(user=user)


def _covers(scope: Registrar, member: Member) -> bool:
    if not scope.country and not scope.federation:
        return True
    countries = {member.country.upper()}
    if member.club_id is not None:
        countries.add((member.club.country or "").upper())
    if scope.country and scope.country.upper() in countries:
        return True
    return bool(scope.federation) and scope.federation.upper() == member.federation.upper()


@rules.predicate
def is_registrar(user: Any) -> bool:
    return registrar_scopes(user).exists()


@rules.predicate
def registrar_of_member(user: Any, member: Member) -> bool:
    return any(_covers(scope, member) for scope in registrar_scopes(user))


@rules.predicate
def referees_some_list(user: Any) -> bool:
    return _signed_in(user) and user.refereed_lists.exists()


@rules.predicate
def admins_some_club(user: Any) -> bool:
    return _signed_in(user) and Club.objects.filter(admins=user).exists()


@rules.predicate
def referees_list(user: Any, rating_list: Any) -> bool:
    return _signed_in(user) and rating_list.referees.filter(pk=user.pk).exists()


# --- tables -----------------------------------------------------------------------------


@rules.predicate
def admins_organiser(user: Any, tournament: Any) -> bool:
    return _signed_in(user) and tournament.organiser.admins.filter(pk=user.pk).exists()


@rules.predicate
def referees_table(user: Any, tournament: Any) -> bool:
    """A referee of one of the lists the table is submitted to."""
    return _signed_in(user) and tournament.rating_lists.filter(referees=user).exists()


@rules.predicate
def table_not_draft(user: Any, tournament: Any) -> bool:
    return tournament.status != "draft"


@rules.predicate
def approved_somewhere(user: Any, tournament: Any) -> bool:
    """Approved as a whole, or by one of its lists."""
    return tournament.status == APPROVED or tournament.list_links.filter(decision=APPROVED).exists()


@rules.predicate
def referees_every_deciding_list(user: Any, tournament: Any) -> bool:
    """A referee of the table who made (for his lists) every decision it has: reopening it
    undoes no one else's decision."""
    if not referees_table.test(user, tournament):
        return False
    decided = tournament.list_links.exclude(decision=UNDECIDED)
    return not decided.exclude(rating_list__referees=user).exists()


@rules.predicate
def referees_an_approving_list(user: Any, tournament: Any) -> bool:
    return (
        _signed_in(user)
        and tournament.list_links.filter(decision=APPROVED, rating_list__referees=user).exists()
    )


# --- the permissions (docs/authority.md's table) ----------------------------------------

keeps_identity = is_staff | admins_members_club | registrar_of_member


@rules.predicate
def keeps_proposals_member(user: Any, proposal: Any) -> bool:
    return bool(keeps_identity.test(user, proposal.member))


edits_table = is_staff | admins_organiser
reviews_table = is_staff | referees_table

PERMISSIONS: dict[str, Any] = {
    # clubs and members
    "club.add_member": is_staff | admins_club,
    "club.create_table": is_staff | admins_club,
    "member.change_identity": keeps_identity,
    "member.see_history": keeps_identity,
    # "This is me" (issue 56): whoever keeps his record confirms an account is he.
    "member.confirm_claim": keeps_identity,
    "member.propose_identity": rules.is_authenticated,
    "proposal.decide": keeps_proposals_member,
    "member.merge": is_staff | registrar_of_member,
    "member.request_merge": is_staff | is_registrar | referees_some_list | admins_some_club,
    "merge.undo": is_staff | registrar_of_member,  # on the kept member
    "registrar.inbox": is_staff | is_registrar,  # merges asked for
    # tables
    "table.view": table_not_draft | edits_table | reviews_table,
    "table.edit": edits_table,
    "table.submit": edits_table,
    "table.withdraw": edits_table,
    "table.review": reviews_table,
    "table.decide": reviews_table,
    # Reopening undoes decisions: staff always; else only while no list approved it (its
    # club or a referee), or by the one who referees every list that decided it.
    "table.reopen": is_staff
    | (~approved_somewhere & (edits_table | reviews_table))
    | referees_every_deciding_list,
    # His lists' approval; a table approved as a whole (no list approved it) by one who
    # referees every list that decided it.
    "table.withdraw_approval": is_staff
    | referees_an_approving_list
    | (approved_somewhere & referees_every_deciding_list),
    # lists
    "list.referee": is_staff | referees_list,
    "list.baseline": is_staff | referees_list,
    "list.publish": is_staff | referees_list,
}


for _name, _predicate in PERMISSIONS.items():
    rules.set_perm(_name, _predicate)


def allowed(user: Any, action: str, obj: Any = None) -> bool:
    """May `user` do `action` (a name of docs/authority.md's table) to `obj`?"""
    if action not in PERMISSIONS:
        raise KeyError(action)
    return bool(rules.has_perm(action, user, obj))


def require(user: Any, action: str, obj: Any = None, message: str = "") -> None:
    if not allowed(user, action, obj):
        raise PermissionDenied(message or action)


# --- the names the rest of the code asked before (thin, same answers) --------------------


def is_club_admin(user: Any, tournament: Any) -> bool:
    return allowed(user, "table.edit", tournament)


def is_referee(user: Any, tournament: Any) -> bool:
    return allowed(user, "table.review", tournament)


def can_view(user: Any, tournament: Any) -> bool:
    return allowed(user, "table.view", tournament)


def may_edit_member(user: Any, member: Member) -> bool:
    return allowed(user, "member.change_identity", member)


def may_see_member_history(user: Any, member: Member) -> bool:
    return allowed(user, "member.see_history", member)


def may_confirm_member_claim(user: Any, member: Member) -> bool:
    return allowed(user, "member.confirm_claim", member)


def may_add_to_club(user: Any, club: Club | None) -> bool:
    """A new member joins a club only by that club's admins (or staff); no club is open."""
    return club is None or allowed(user, "club.add_member", club)


def may_see_drafts_member(user: Any, member: Member) -> bool:
    """A member only drafts name (not public yet, issue 54): his club's admins made him."""
    return bool(is_staff(user) or admins_members_club(user, member))


def may_credit_club(user: Any, club: Club) -> bool:
    """Naming a club as the one that held a table (hand-entered or imported) is that club's
    word to give: its admins' or staff's, as for a table it enters itself."""
    return allowed(user, "club.create_table", club)


def clubs_administered(user: Any) -> QuerySet[Club]:
    if not _signed_in(user):
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(admins=user)


def members_kept_by(user: Any) -> Q:
    """The members whose identity `user` keeps, as a filter on members (his inbox)."""
    if not _signed_in(user):
        return Q(pk__in=[])
    if user.is_staff:
        return Q()
    kept = Q(club__admins=user)
    for scope in registrar_scopes(user):
        if not scope.country and not scope.federation:
            return Q()
        if scope.country:
            kept |= Q(country__iexact=scope.country) | Q(club__country__iexact=scope.country)
        if scope.federation:
            kept |= Q(federation__iexact=scope.federation)
    return kept


def links_decided_by(user: Any, tournament: Any) -> QuerySet:
    """The table's (table, list) links this user decides: his lists' (staff: every list)."""
    links = tournament.list_links.select_related("rating_list")
    if not _signed_in(user):
        return links.none()
    if user.is_staff:
        return links
    return links.filter(rating_list__referees=user)


def list_accepts(rating_list: Any, club: Club | None) -> bool:
    """May this club submit tables to the list? Open to all, or the owner and the clubs
    named; a club's own list (by default) only its club's."""
    mode = rating_list.submitters
    if mode == "all" or (mode == "" and rating_list.owner_club_id is None):
        return True
    if club is None:
        return False
    if club.pk == rating_list.owner_club_id:
        return True
    return mode == "named" and rating_list.submitting_clubs.filter(pk=club.pk).exists()
