#!/usr/bin/env bash
# The whole test suite: the layer rules (dependency-cruiser), formatting (Prettier), lint (ESLint), vitest (unit + integration on PGlite, and on PostgreSQL when DATABASE_URL is
# set) beside a production build (into NEXT_DIST_DIR, default .next), and against that build, side by
# side, the server suite over HTTP (vitest.server.config.ts: live co-editing, two instances on
# PostgreSQL, runner processes) and the Playwright suite in Chromium. Ends with one line adding up every suite: "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
# Test data in memory: every database test copies a 41 MB PGlite template and PGlite writes through
# the file system, as do the runner's work directories and Chromium's profiles. On the 2-core
# machine's ext4 a template copy took 1 s where tmpfs takes 0.25, and the database suites ran 27 %
# faster. Only when TMPDIR is not set already and /dev/shm has room; removed when the run ends.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] \
  && [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR==2 {print $4}')" -gt $((6 * 1024 * 1024)) ] 2>/dev/null; then
  # Open to every uid as /tmp is: a sandbox started by root runs as nobody only where nobody can reach its directory.
  TMPDIR=$(mktemp -d /dev/shm/rubric-studio-tests.XXXXXX) && chmod 1777 "$TMPDIR" && export TMPDIR \
    && trap 'rm -rf "$TMPDIR"' EXIT
fi
results=$(mktemp -d)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# Each phase says how long it took, so a slower CI shows where.
took() { echo "   ($1: $((SECONDS - phase_start)) s)"; phase_start=$SECONDS; }

# The three static checks are single-threaded: they run side by side, and each one's output is
# printed whole, in this order, once all three are done. `static_check <name> <said when clean> <cmd…>`.
static_check() {
  local name=$1 clean=$2
  shift 2
  ( "$@" >"$results/$name.log" 2>&1 && { [ -z "$clean" ] || echo "$clean" >>"$results/$name.log"; }; echo $? >"$results/$name.rc" ) &
}
phase_start=$SECONDS
static_check layers "" npm run --silent lint:layers
static_check format "every file is formatted" npm run --silent format:check
static_check eslint "no findings" npm run --silent lint:eslint
wait
echo "── layers (dependency-cruiser: imports follow ARCHITECTURE.md, no cycles) ──"
cat "$results/layers.log"
echo "── format (Prettier) ──"
cat "$results/format.log"
echo "── eslint ──"
cat "$results/eslint.log"
layers_rc=$(cat "$results/layers.rc")
format_rc=$(cat "$results/format.rc")
eslint_rc=$(cat "$results/eslint.rc")
took "static checks"

# The production build needs nothing vitest does: it runs beside it (vitest leaves part of the two
# cores idle while it waits on PostgreSQL and child processes), and the suites after it wait for it.
(
  build_start=$SECONDS
  { bash scripts/ensure-system-packages.sh && npm run build; } >"$results/build.log" 2>&1
  echo $? >"$results/build.rc"
  echo $((SECONDS - build_start)) >"$results/build.s"
) &
build_pid=$!

echo "── vitest (unit and integration${DATABASE_URL:+, PGlite and PostgreSQL}), beside the build ──"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"
vitest_rc=$?
took "vitest"

echo "── next build ──"
wait $build_pid
build_rc=$(cat "$results/build.rc" 2>/dev/null || echo 1)
# The whole log when it fails: the cause is not always in its last lines.
[ "$build_rc" -eq 0 ] && echo "build ok ($(cat "$results/build.s") s beside vitest)" || cat "$results/build.log"
took "build, after vitest"

# The server suite and Playwright share the build and run side by side (each starts its own studios
# on its own ports and data): together they take the time of the longer one. Each one's output is
# kept and printed whole, one after the other, once both are done.
server_rc=1
e2e_rc=1
if [ $build_rc -eq 0 ]; then
  ( npx vitest run --config vitest.server.config.ts --reporter=default --reporter=json --outputFile.json="$results/server.json" >"$results/server.log" 2>&1; echo $? >"$results/server.rc" ) &
  server_pid=$!
  ( PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" npx playwright test --reporter=list,json >"$results/playwright.log" 2>&1; echo $? >"$results/playwright.rc" ) &
  e2e_pid=$!
  wait $server_pid $e2e_pid
  server_rc=$(cat "$results/server.rc" 2>/dev/null || echo 1)
  e2e_rc=$(cat "$results/playwright.rc" 2>/dev/null || echo 1)
fi
took "server suite and Playwright, side by side"
echo "── server tests (the built studio over HTTP${DATABASE_URL:+, PGlite and PostgreSQL}) ──"
cat "$results/server.log" 2>/dev/null
echo "── playwright (Chromium) ──"
cat "$results/playwright.log" 2>/dev/null

node scripts/sum-test-results.mjs "$results/vitest.json" "$results/playwright.json" "$build_rc" "$results/server.json" "layers=$layers_rc" "format=$format_rc" "eslint=$eslint_rc"
sum_rc=$?
rm -rf "$results"
[ $layers_rc -eq 0 ] && [ $format_rc -eq 0 ] && [ $eslint_rc -eq 0 ] && [ $vitest_rc -eq 0 ] && [ $server_rc -eq 0 ] && [ $e2e_rc -eq 0 ] && [ $build_rc -eq 0 ] && [ $sum_rc -eq 0 ]
