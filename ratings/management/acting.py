"""`--as USERNAME` for the commands that act for someone (issue 54): the command then
does exactly what that user may do (`clubsite.authority`), as the pages would let him.
Without it a command is the operator's, who keeps the federation's records."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from clubsite import authority

HELP = "act as this user, with only his rights (docs/authority.md)"


def acting_user(username: str | None) -> Any:
    """The active user named, or None for the operator."""
    if not username:
        return None
    user = get_user_model().objects.filter(username=username[:150], is_active=True).first()
    if user is None:
        raise CommandError(f"no active user {username!r}")
    return user


def require(user: Any, action: str, obj: Any) -> None:
    if user is not None and not authority.allowed(user, action, obj):
        raise CommandError(f"{user.get_username()} may not do that ({action}: docs/authority.md)")
