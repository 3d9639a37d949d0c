import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.config.settings")
application = get_wsgi_application()


def freeze_what_is_loaded() -> None:
    """Load every view (the URL patterns import them), then hand all that is loaded to
    the collector's permanent generation: Django, the apps and their modules live as long
    as the worker, and without this each full collection walked them again (129 ms, about
    once in 120 requests of a web worker at EGD scale, issue 18)."""
    get_resolver().url_patterns  # noqa: B018 - imports the URL conf and its views
    gc.collect()
    gc.freeze()


freeze_what_is_loaded()
