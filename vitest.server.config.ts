import path from "node:path";
import { defineConfig } from "vitest/config";
import { SHORT_LIVED_NODE_FLAGS } from "./test/node-flags";

/**
 * The server suite: tests against the built studio (`next start`) over HTTP, on PGlite and, when
 * DATABASE_URL is set, on PostgreSQL (`test/server/*.server.test.ts`). Needs a build in
 * NEXT_DIST_DIR (default `.next`): scripts/test-all.sh runs it after `npm run build`.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/server/**/*.server.test.ts"],
    environment: "node",
    globalSetup: ["test/global-setup.ts"],
    // Servers start in seconds; a failing property shrinks by running again many times.
    testTimeout: 300_000,
    hookTimeout: 180_000,
    // server-only throws outside a react-server bundle; the tests prepare databases directly.
    alias: { "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts") },
    // Each file starts its own studio processes, databases and ports (test/server/harness.ts: a hundred
    // per worker): two files at a time, since most of a file's time is waiting on leases, grace
    // periods and restarts rather than CPU.
    maxWorkers: 2,
    execArgv: SHORT_LIVED_NODE_FLAGS,
    // vitest's default, pinned: afterAll hooks run in reverse order of registration, so a file's
    // own hooks registered after studioSuite (test/server/studio-suite.ts) run before its studio stops.
    sequence: { hooks: "stack" },
  },
});
