#!/usr/bin/env bash
# Every test: server tests on embedded PGlite, again on PostgreSQL (TEST_DATABASE_URL, or the local
# server when one answers), then the e2e specs in Chromium. Ends with one "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
results="$(mktemp -d)"
status=0

if [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; then
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/test"
fi

echo "== server tests on PGlite"
(cd server && env -u TEST_DATABASE_URL npx vitest run --reporter=default --reporter=json --outputFile.json="$results/server-pglite.json") || status=1

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== server tests on PostgreSQL ($TEST_DATABASE_URL)"
  (cd server && npx vitest run --reporter=default --reporter=json --outputFile.json="$results/server-postgres.json") || status=1
else
  echo "== server tests on PostgreSQL: skipped, no TEST_DATABASE_URL and no server on 127.0.0.1:5432"
fi

echo "== e2e in Chromium"
(bash scripts/ensure-chromium.sh && npm run build -w web --silent && cd e2e && PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json) || status=1

node scripts/summarize-tests.mjs "$results" || status=1
rm -rf "$results"
exit $status
