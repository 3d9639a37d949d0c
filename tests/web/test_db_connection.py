"""A web worker keeps its database connection from one request to the next
(`CONN_MAX_AGE`): a new PostgreSQL connection per page cost 8-22 ms at EGD scale."""

from __future__ import annotations

from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.urls import reverse


def _get(handler: WSGIHandler, path: str) -> str:
    """One request as a WSGI server makes it (Django's test client keeps the connection
    open whatever the setting: it leaves out the signal that closes it)."""
    environ: dict[str, object] = {"PATH_INFO": path, "HTTP_HOST": "testserver"}
    setup_testing_defaults(environ)
    statuses: list[str] = []
    response = handler(environ, lambda status, headers: statuses.append(status))
    try:
        b"".join(response)
    finally:
        response.close()  # the server's part: Django's `request_finished`
    return statuses[0]


def test_a_web_worker_keeps_its_database_connection_between_requests(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's in-memory test database is never closed")
    if not connection.settings_dict["CONN_MAX_AGE"]:
        # The default is test_settings.py's to check, in a clean environment.
        pytest.skip("CONN_MAX_AGE is 0 in this run's environment (debug on, or set so)")
    handler = WSGIHandler()
    assert _get(handler, reverse("rating_lists")).startswith("200")
    first = connection.connection
    assert first is not None and not first.closed
    assert _get(handler, reverse("rating_lists")).startswith("200")
    assert connection.connection is first
