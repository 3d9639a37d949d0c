"""The 500 page in the site's layout, drawn without the request's context.

A 500 may come from the database or a context processor itself, so the page is rendered
with a plain context (no user, no session, no messages); if even that fails, a short
plain page is sent rather than a second error.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponseServerError
from django.template import loader

logger = logging.getLogger(__name__)

FALLBACK = "<!doctype html><title>Server error</title><h1>Server error (500)</h1>"


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponseServerError:
    try:
        body = loader.get_template(template_name).render({"error_code": 500})
    except Exception:  # noqa: BLE001 - the error page must not fail in turn
        logger.exception("The 500 page could not be rendered")
        body = FALLBACK
    return HttpResponseServerError(body)
