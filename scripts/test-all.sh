#!/usr/bin/env bash
# The whole test suite: the layer rules (dependency-cruiser), vitest (unit + integration on PGlite, and on PostgreSQL when DATABASE_URL is
# set), then a production build (into NEXT_DIST_DIR, default .next), the server suite against that
# build over HTTP (vitest.server.config.ts: live co-editing, two instances on PostgreSQL) and the
# Playwright suite in Chromium. Ends with one line adding up every suite: "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
results=$(mktemp -d)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

echo "── layers (dependency-cruiser: imports follow ARCHITECTURE.md, no cycles) ──"
npm run --silent lint:layers
layers_rc=$?

echo "── vitest (unit and integration${DATABASE_URL:+, PGlite and PostgreSQL}) ──"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"
vitest_rc=$?

echo "── next build ──"
build_rc=0
bash scripts/ensure-system-packages.sh || build_rc=$?
[ $build_rc -eq 0 ] && { npm run build >"$results/build.log" 2>&1 || { build_rc=$?; tail -40 "$results/build.log"; }; }
[ $build_rc -eq 0 ] && echo "build ok"

echo "── server tests (the built studio over HTTP${DATABASE_URL:+, PGlite and PostgreSQL}) ──"
server_rc=1
if [ $build_rc -eq 0 ]; then
  npx vitest run --config vitest.server.config.ts --reporter=default --reporter=json --outputFile.json="$results/server.json"
  server_rc=$?
fi

echo "── playwright (Chromium) ──"
e2e_rc=1
if [ $build_rc -eq 0 ]; then
  PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" npx playwright test --reporter=list,json
  e2e_rc=$?
fi

node scripts/sum-test-results.mjs "$results/vitest.json" "$results/playwright.json" "$build_rc" "$results/server.json" "$layers_rc"
sum_rc=$?
rm -rf "$results"
[ $layers_rc -eq 0 ] && [ $vitest_rc -eq 0 ] && [ $server_rc -eq 0 ] && [ $e2e_rc -eq 0 ] && [ $build_rc -eq 0 ] && [ $sum_rc -eq 0 ]
