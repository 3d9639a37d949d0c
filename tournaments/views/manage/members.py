"""A player's identity data from the club admin's tournament: his own club's member he
corrects at once; anyone else's he proposes, with the table, for that member's club admins
or a registrar to accept (issue 54)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubsite.authority import may_edit_member
from clubsite.duplicates import Candidate, likely_duplicates
from clubsite.models import Member
from clubsite.services import member_update_identity
from tournaments import manage_services
from tournaments.models import MemberProposal, Participant, Tournament
from tournaments.review.proposals import proposals_record
from tournaments.views.forms import MemberIdentityForm
from tournaments.views.manage.access import NAV, error_messages, tournament_or_403


@login_required
@require_http_methods(["GET", "POST"])
def manage_member_identity(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    tournament = tournament_or_403(request, pk)
    participant = get_object_or_404(
        Participant.objects.select_related("member", "member__club"),
        tournament=tournament,
        member_id=member_pk,
    )
    member = participant.member
    owner = may_edit_member(request.user, member)
    editable = tournament.status in manage_services.EDITABLE
    form = MemberIdentityForm(request.POST or None, instance=member, names=owner)
    posted = request.method == "POST" and (owner or editable) and form.is_valid()
    duplicates: list[Candidate] = []
    if posted and owner and form.renames() and not request.POST.get("confirm_name"):
        duplicates = _renamed_duplicates(form, member, tournament)
    if posted and not duplicates:
        try:
            if owner:
                member_update_identity(
                    member=member, changes=form.changes(), by=request.user,
                    reason=_("Corrected from %(name)s (#%(id)d)")
                    % {"name": tournament.name, "id": tournament.pk},
                )  # fmt: skip
                messages.success(request, _("%(name)s is saved.") % {"name": member.full_name})
            else:
                made = proposals_record(
                    tournament=tournament, member=member, values=form.changes(),
                    by=request.user, source="form",
                )  # fmt: skip
                messages.success(
                    request,
                    _(
                        "%(n)d changes to %(name)s are proposed with this table; his club's "
                        "admins or a registrar accept or decline them."
                    )
                    % {"n": len(made), "name": member.full_name},
                )
        except ValidationError as error:
            for message in error_messages(error):
                messages.error(request, message)
        else:
            return redirect("manage_participants", pk=pk)
    return render(
        request,
        "tournaments/manage/member_identity.html",
        {
            "tournament": tournament,
            "member": member,
            "form": form,
            "owner": owner,
            "editable": editable,
            "duplicates": duplicates,
            "proposals": MemberProposal.objects.filter(tournament=tournament, member=member),
            **NAV,
        },
    )


def _renamed_duplicates(
    form: MemberIdentityForm, member: Member, tournament: Tournament
) -> list[Candidate]:
    """Who else the corrected name may be: the admin confirms before two records share it."""
    data = form.cleaned_data
    return likely_duplicates(
        family_name=data["family_name"], given_name=data.get("given_name") or "",
        exclude=[member.pk],
        playing=set(tournament.participants.values_list("member_id", flat=True)),
    )  # fmt: skip
