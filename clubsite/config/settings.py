"""Settings for clubsite, read from the environment (django-environ).

Defaults suit development on a bare machine: SQLite in the project folder,
tasks run in-process, DEBUG off unless DJANGO_DEBUG is set.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=False)
PRODUCTION = env.bool("DJANGO_PRODUCTION", default=False)
DEVELOPMENT_SECRET_KEY = "insecure-development-key-set-DJANGO_SECRET_KEY-in-production"
SECRET_KEY = env("DJANGO_SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
if PRODUCTION and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY: production refuses the development key.")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_tables2",
    "django_filters",
    "axes",
    "simple_history",
    "rules",
    "clubsite",
    "tournaments",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # English dates in the US order for a user whose profile asks (issue 55).
    "clubsite.config.date_style.ProfileDateStyleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Who changed a member (django-simple-history reads the request's user).
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, so that it sees the outcome of every login attempt.
    "axes.middleware.AxesMiddleware",
]

from clubsite.config.csp import CONTENT_SECURITY_POLICY  # noqa: E402, F401

ROOT_URLCONF = "clubsite.config.urls"
WSGI_APPLICATION = "clubsite.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# A web worker keeps its database connection between requests (seconds; 0: one connection
# per request, Django's default). A new PostgreSQL connection starts a server process:
# through gunicorn at EGD scale each page took 8-22 ms longer so, and under load (30 users,
# a full recompute running) p95 was 270 ms against 170 ms.
# Checked before reuse (a connection the server dropped is opened again). Not with debug
# on: the development server starts a thread per request, whose connections would then
# wait for the garbage collector (21 were open after 500 requests).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0 if DEBUG else 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# PostgreSQL's parallel workers per query; a negative value leaves the server's setting. 0 by
# default: starting two workers took 6 ms on a small machine, more than the pages' queries
# they would split (a 211-tournament player's head-to-head: 13 ms with them, 6 without),
# and on a 2-core box they take the core another request waits for. A full recompute at
# EGD scale took the same with and without (14.3 s; issue 18).
DATABASE_PARALLEL_WORKERS = env.int("DATABASE_PARALLEL_WORKERS", default=0)
if DATABASES["default"]["ENGINE"].endswith("postgresql") and DATABASE_PARALLEL_WORKERS >= 0:
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _parallel = f"-c max_parallel_workers_per_gather={DATABASE_PARALLEL_WORKERS}"
    _options["options"] = f"{_options.get('options', '')} {_parallel}".strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Object permissions (clubsite.authority): `user.has_perm(name, obj)` and `{% has_perm %}`.
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (django-axes): lock a username from one address after repeated failures.
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("uk", "Українська"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates in the British form (08/10/2026, 8 October 2026), not Django's US `en` ones.
FORMAT_MODULE_PATH = ["clubsite.config.formats"]
TIME_ZONE = env("DJANGO_TIME_ZONE", default="Europe/Kyiv")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG and env.bool("DJANGO_MANIFEST_STATIC", default=False)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

EMAIL_BACKEND = env(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default="clubsite@localhost")
# SMTP (DJANGO_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend).
EMAIL_HOST = env("DJANGO_EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("DJANGO_EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("DJANGO_EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("DJANGO_EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("DJANGO_EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = 30
# The file backend's folder (django.core.mail.backends.filebased.EmailBackend).
EMAIL_FILE_PATH = env("DJANGO_EMAIL_FILE_PATH", default=str(BASE_DIR / "sent-mail"))
# The address the links in e-mail start with.
SITE_URL = env("DJANGO_SITE_URL", default="http://127.0.0.1:8000")

# Uploads: results files are small; refuse anything larger before parsing.
RESULTS_UPLOAD_MAX_BYTES = env.int("RESULTS_UPLOAD_MAX_BYTES", default=2 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# Celery: with no broker configured, tasks run in-process so a newcomer needs only Python.
# Eager mode still builds a producer, and an empty URL makes kombu warn "No hostname was
# supplied" on every approval: the in-memory transport stands in (named host, or kombu
# warns the same for memory://), and nothing is sent.
# The Celery worker's processes (and `manage.py recompute --nice`) run this much lower than
# the web workers (os.nice): a full recompute takes a core for tens of seconds, and on a
# small machine pages should get the CPU first (issue 18). 0 leaves the priority alone.
RECOMPUTE_NICENESS = env.int("RECOMPUTE_NICENESS", default=10)
CELERY_TASK_ALWAYS_EAGER = not env("CELERY_BROKER_URL", default="")
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="") or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# An unacknowledged task (its worker was killed) is redelivered after this many seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
}
# Recompute requests waiting in the database are swept up this often (seconds).
RECOMPUTE_SWEEP_SECONDS = env.int("RECOMPUTE_SWEEP_SECONDS", default=60)
CELERY_BEAT_SCHEDULE = {
    "sweep-pending-recomputes": {
        "task": "ratings.tasks.sweep_pending_recomputes",
        "schedule": RECOMPUTE_SWEEP_SECONDS,
    },
}
# Give up publishing quickly when the broker is down: the request waits in the database.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 3

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if env.bool("DJANGO_SECURE", default=not DEBUG and PRODUCTION):
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="WARNING")},
}
