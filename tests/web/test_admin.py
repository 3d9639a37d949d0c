"""The Django admin covers every model, and each changelist works with search and filters."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from sampledata.demo import demo_load
from tests.factories import UserFactory

APPS = ("clubsite", "tournaments", "ratings")


def test_every_model_has_an_admin():
    missing = [
        model.__name__
        for app in APPS
        for model in apps.get_app_config(app).get_models()
        if model not in admin.site._registry
    ]
    assert missing == []


@pytest.mark.django_db
def test_changelists_and_search_load_for_staff(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        demo_load()  # once: every changelist then has real rows to show
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    failures = []
    for model in (m for app in APPS for m in apps.get_app_config(app).get_models()):
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        queries = [{}] + ([{"q": "Rivne"}] if admin.site._registry[model].search_fields else [])
        for query in queries:
            status = client.get(url, query).status_code
            if status != 200:
                failures.append((model.__name__, query, status))
    assert failures == []


@pytest.mark.django_db
def test_admin_refuses_non_staff(client):
    client.force_login(UserFactory(is_staff=False))
    response = client.get(reverse("admin:clubsite_member_changelist"))
    assert response.status_code == 302
