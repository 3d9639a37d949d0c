from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, commands, worker):
        # `ratings.recompute.services` queues them by name, without importing them.
        from ratings import tasks  # noqa: F401
