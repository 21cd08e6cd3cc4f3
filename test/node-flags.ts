/**
 * Node flags for the test processes that open the embedded database and exit soon after: vitest's
 * workers (each test file opens its own PGlite), the bundled command lines the suites start
 * (test/cli-process.ts) and the server suite's studios (one per test file, test/server/harness.ts).
 * V8 then compiles PGlite's WebAssembly with its baseline compiler (Liftoff) only. By default it
 * also recompiles hot functions with TurboFan on background threads, which pays off in a long-lived
 * studio but costs a short process more CPU than it ever saves: on the 2-core machine, user CPU fell
 * 32 % for the CLI suites, 21 % for database suites and 19 % for server-suite files on PGlite.
 * Playwright's one studio, which lives for the whole suite, and the benchmarks' keep V8's defaults.
 */
export const SHORT_LIVED_NODE_FLAGS = ["--liftoff-only"];
