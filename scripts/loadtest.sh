#!/usr/bin/env bash
# Load test (issue 18): players browsing lists, profiles and tournaments, against gunicorn
# with 4 workers on 127.0.0.1, first on a quiet site, then while a full recompute runs.
# Needs an EGD-scale database (DATABASE_URL; `manage.py bench_recompute` makes one) and
# Locust (requirements-dev.txt). Prints requests/s and p50/p95/p99 of both phases.
#
#   DATABASE_URL=postgres://… ./scripts/loadtest.sh [users=30] [seconds=60] [list=bench-egd]
#
# LOADTEST_NICE=1 runs the recompute below the web workers' priority, as the Celery worker's
# processes do in production (settings.RECOMPUTE_NICENESS); unset, at the same priority.
set -euo pipefail
cd "$(dirname "$0")/.."
# The project's virtualenv (scripts/test.sh makes it): gunicorn, Locust and Django are there.
if [[ -z "${VIRTUAL_ENV:-}" && -f .venv/bin/activate ]]; then
  # shellcheck disable=SC1091
  source .venv/bin/activate
fi
users="${1:-30}"
seconds="${2:-60}"
list="${3:-bench-egd}"
port="${LOADTEST_PORT:-8018}"
host="http://127.0.0.1:${port}"
out="$(mktemp -d)"
: "${DATABASE_URL:?set DATABASE_URL to the EGD-scale database}"

gunicorn clubsite.config.wsgi --workers 4 --bind "127.0.0.1:${port}" --access-logfile /dev/null \
  --error-logfile "${out}/gunicorn.log" &
gunicorn_pid=$!
recompute_pid=""
cleanup() {
  [[ -n "$recompute_pid" ]] && kill "$recompute_pid" 2>/dev/null || true
  kill "$gunicorn_pid" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 60); do curl -sf -o /dev/null "${host}/" && break; sleep 1; done

phase() {  # name [seconds]: run Locust headless that long, print its aggregated line
  LOADTEST_LIST="$list" locust -f scripts/locustfile.py --headless --host "$host" \
    --users "$users" --spawn-rate "$users" --run-time "${2:-$seconds}s" --only-summary \
    --csv "${out}/$1" >"${out}/$1.log" 2>&1 || true
  python3 - "$1" "${out}/$1_stats.csv" <<'PY'
import csv, sys
name, path = sys.argv[1], sys.argv[2]
for row in csv.DictReader(open(path)):
    if row["Name"] == "Aggregated":
        print(f"{name}: {float(row['Requests/s']):.1f} requests/s, {row['Request Count']} requests, "
              f"{row['Failure Count']} failures, p50 {row['50%']} ms, p95 {row['95%']} ms, "
              f"p99 {row['99%']} ms")
PY
}

echo "load test: ${users} users, ${seconds} s per phase, gunicorn 4 workers, list ${list}"
# Fresh workers load templates, code and connections on their first requests (up to 430 ms
# each in the first second, seen in Locust's history): a short phase first, not counted,
# so that the phases compare a site in its steady state.
phase warm-up 10
phase quiet
# Full recomputes back to back for the whole second phase (one takes less than a phase),
# so that every request of it meets one running.
(
  while [[ ! -e "${out}/phase-over" ]]; do
    before=$(date +%s.%N)
    python manage.py recompute ${LOADTEST_NICE:+--nice} "$list" >>"${out}/recompute.log" 2>&1 \
      && echo "$(python3 -c "import time; print(f'{time.time() - ${before}:.1f}')")" >>"${out}/recompute-seconds" \
      || { echo failed >>"${out}/recompute-seconds"; break; }
  done
) &
recompute_pid=$!
phase during-recompute
touch "${out}/phase-over"
wait "$recompute_pid" || true
recompute_pid=""
echo "full recomputes during the second phase: $(paste -sd ' ' "${out}/recompute-seconds") s each"
echo "details: ${out}"
