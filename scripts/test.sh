#!/usr/bin/env bash
# Run every test: lint, import contracts, types, and the pytest suite (engine, pipeline, pages, browser).
# On SQLite with in-process tasks by default; set DATABASE_URL / CELERY_BROKER_URL for
# PostgreSQL and Redis (the worker tests then start a real Celery worker).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv 2>/dev/null || true
# shellcheck disable=SC1091
source .venv/bin/activate
pip install --quiet --disable-pip-version-check -r requirements-dev.txt

ruff check .
ruff format --check .
lint-imports
python manage.py compilemessages -v 0 2>/dev/null || true

status=0
python -m pytest "$@" || status=$?
if [[ $status -eq 5 ]]; then
  echo "pytest collected no tests: that is a failure here" >&2
  exit 1
fi
exit $status
