"""A member's record: its history of changes (staff and his club's admins)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubsite.models import Member
from clubsite.ownership import may_see_member_history
from clubsite.selectors import member_changes


@login_required
@require_GET
def member_history(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    if not may_see_member_history(request.user, member):
        raise PermissionDenied(_("His history is shown to staff and to his club's admins."))
    return render(
        request,
        "clubsite/member_history.html",
        {"member": member, "changes": member_changes(member)},
    )
