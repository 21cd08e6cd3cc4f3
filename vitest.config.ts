import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { SHORT_LIVED_NODE_FLAGS } from "./test/node-flags";

/**
 * Pure tests: the domain (`lib/`), the browser's models (`components/`) and the deployment files.
 * They hold no state outside the test (no database, no singleton, no mocked module), so one worker
 * runs many files over the modules it imported once instead of importing them again per file: on
 * the 2-core machine their 91 files took 75 CPU-s instead of 122 (40 s alone instead of 65).
 */
const PURE = ["lib/**/*.test.ts", "components/**/*.test.ts", "deploy/**/*.test.ts"];
// Pure, but it starts the CLI bundles the global setup makes.
const PURE_BUT_NEEDS_SETUP = ["lib/grading/cli.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // What both projects share (each says `extends: true`).
    environment: "node",
    // Integration tests open databases and import 11k-node rubrics: give them room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // server-only throws outside a react-server bundle; tests run the server code directly.
    alias: { "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts") },
    execArgv: SHORT_LIVED_NODE_FLAGS,
    // Two files at a time (the machine's two cores): every integration file opens its own databases and temp dirs.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "pure",
          include: PURE,
          exclude: [...configDefaults.exclude, ...PURE_BUT_NEEDS_SETUP],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: [
            ...PURE_BUT_NEEDS_SETUP,
            "db/**/*.test.ts",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "app/**/*.test.ts",
            "runner/**/*.test.ts",
            "test/paperbench/**/*.test.ts",
            "test/layers/**/*.test.ts",
            "test/node-engines.test.ts",
          ],
          // Every integration test opens fresh PGlite directories from one migrated template, and the
          // command-line tests start bundles: both made once, here.
          globalSetup: ["test/global-setup.ts"],
        },
      },
    ],
  },
});
