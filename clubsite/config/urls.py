from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from clubsite.views import account as account_views

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's own: the reset page that sends a bounded number of mails.
    path(
        "accounts/password_reset/",
        account_views.ThrottledPasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("clubsite.config.site_urls")),
]

if settings.DEBUG:
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()

handler500 = "clubsite.views.error_views.server_error"
