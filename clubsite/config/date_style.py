"""English pages in the US date order for a user whose profile asks for it (issue 55).

English dates are British (`clubsite.config.formats.en`). Django picks formats by the active
language, so such a user's English requests run as `en-us`: the same English words (there is
no `en-us` catalogue) with `clubsite.config.formats.en_US`'s dates. Other languages keep
their own forms. After the locale and authentication middleware, which it reads.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from clubsite import selectors
from clubsite.models import Profile


class ProfileDateStyleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            translation.get_language() == "en"
            and request.user.is_authenticated
            and selectors.profile_for_user(request.user).date_style == Profile.DateStyle.US
        ):
            translation.activate("en-us")
        return self.get_response(request)
