"""The public site's pages. Each app's views are mounted here."""

from django.urls import path

from clubsite import views

urlpatterns = [
    path("", views.home, name="home"),
]
