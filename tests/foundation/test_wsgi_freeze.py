"""The WSGI module hands what it loaded to the collector's permanent generation."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_web_worker_starts_with_the_loaded_code_frozen_and_serves():
    """In a fresh process, as a worker loads it: importing the WSGI module loads the URL
    conf and its views and freezes them (a full collection then walks only what requests
    make); the application still serves a page."""
    script = textwrap.dedent(
        """
        import gc, io, sys
        from clubsite.config.wsgi import application
        frozen = gc.get_freeze_count()
        assert "ratings.views.public" in sys.modules, "views not loaded before the freeze"
        assert frozen > 10_000, frozen
        assert len(gc.get_objects()) < frozen / 4, (len(gc.get_objects()), frozen)
        statuses = []
        environ = {
            "REQUEST_METHOD": "GET", "PATH_INFO": "/api/", "SERVER_NAME": "localhost",
            "SERVER_PORT": "80", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http",
            "HTTP_HOST": "localhost",
        }
        body = b"".join(application(environ, lambda status, headers: statuses.append(status)))
        assert statuses == ["200 OK"], statuses
        print("ok", frozen)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok")
