"""The Celery app. Without CELERY_BROKER_URL, tasks run in-process (see settings)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.config.settings")

app = Celery("clubsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
