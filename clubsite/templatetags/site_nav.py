"""Template tags for the site's layout: which role links the navigation shows."""

from __future__ import annotations

from django import template

from clubsite import authority

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_roles(context: template.Context) -> dict[str, bool]:
    """Whether the signed-in user administers a club, referees a list, keeps members'
    identities (a club admin or a registrar: his inbox of proposals) (small queries)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"club_admin": False, "referee": False, "keeper": False}
    cached = getattr(request, "_nav_roles", None)
    if cached is None:
        cached = {
            "club_admin": user.is_staff or user.administered_clubs.exists(),
            "referee": user.is_staff or user.refereed_lists.exists(),
        }
        cached["keeper"] = cached["club_admin"] or authority.is_registrar(user)
        request._nav_roles = cached
    return cached
