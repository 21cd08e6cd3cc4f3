// Adds up the layer check (one check: imports follow ARCHITECTURE.md), the JSON reports of vitest (unit and integration), Playwright and vitest's server suite
// (run only after a build) into the one line CI reads: "N passed, N failed, N skipped". A suite that
// left no report counts as one failure (the server suite and Playwright: once for a failed build).
import fs from "node:fs";

// After the four suites come the static checks, each as `name=rc` (e.g. `layers=0 format=1`): each
// passes or fails as one test.
const [vitestFile, playwrightFile, buildRc, serverFile, ...checks] = process.argv.slice(2);
const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
};
let passed = 0;
let failed = 0;
let skipped = 0;

const addVitest = (report) => {
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  // A test file that failed to load has no tests but is a failure.
  const loadFailures = report.testResults.filter(
    (f) => f.status === "failed" && f.assertionResults.length === 0,
  ).length;
  failed += loadFailures;
  // vitest fails a run whose tests all passed when an error escaped them (an unhandled rejection, an
  // error after a test ended): its report says so only in `success`, so it counts as one failure.
  if (report.success === false && report.numFailedTests === 0 && loadFailures === 0) {
    console.log("vitest reported an error outside the tests (see 'Unhandled Errors' above)");
    failed += 1;
  }
};

/** What to run to see each static check's findings. */
const CHECK_COMMANDS = { layers: "npm run lint:layers", format: "npm run format:check", eslint: "npm run lint:eslint" };
for (const check of checks) {
  const [name, rc] = check.split("=");
  if (rc === "0") passed += 1;
  else {
    console.log(`the ${name} check failed (${CHECK_COMMANDS[name] ?? name} lists what it found)`);
    failed += 1;
  }
}

const vitest = read(vitestFile);
if (vitest) addVitest(vitest);
else {
  console.log("vitest left no report");
  failed += 1;
}

if (serverFile !== undefined) {
  const server = read(serverFile);
  if (server) addVitest(server);
  else if (buildRc === "0") {
    console.log("the server tests left no report");
    failed += 1;
  }
  // A failed build is counted once, below, where Playwright did not run either.
}

const playwright = read(playwrightFile);
if (playwright) {
  const s = playwright.stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
  skipped += s.skipped;
  failed += (playwright.errors ?? []).length;
} else {
  console.log(buildRc !== "0" ? "the build failed, so Playwright did not run" : "playwright left no report");
  failed += 1;
}

const summary = `${passed} passed, ${failed} failed, ${skipped} skipped`;
console.log(summary);
if (process.env.TEST_SUMMARY_FILE) fs.writeFileSync(process.env.TEST_SUMMARY_FILE, summary);
process.exit(failed > 0 ? 1 : 0);
