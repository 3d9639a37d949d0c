#!/usr/bin/env bash
# Set everything up and run clubsite on http://127.0.0.1:8000 with the demo data.
# SQLite and in-process tasks by default; PostgreSQL, Redis and a Celery worker
# when DATABASE_URL / CELERY_BROKER_URL are set.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv 2>/dev/null || true
# shellcheck disable=SC1091
source .venv/bin/activate
pip install --quiet --disable-pip-version-check -r requirements.txt

export DJANGO_DEBUG="${DJANGO_DEBUG:-true}"
python manage.py migrate --noinput -v 0
python manage.py compilemessages -v 0 2>/dev/null || true

worker_pid=""
if [[ -n "${CELERY_BROKER_URL:-}" ]]; then
  echo "Starting a Celery worker (broker: ${CELERY_BROKER_URL})"
  celery -A clubsite.config worker -B --loglevel=warning --concurrency=1 &
  worker_pid=$!
  trap '[[ -n "$worker_pid" ]] && kill "$worker_pid" 2>/dev/null' EXIT
fi

python manage.py load_demo
echo
echo "clubsite runs on http://127.0.0.1:8000  (admin: http://127.0.0.1:8000/admin/)"
python manage.py runserver 127.0.0.1:8000
