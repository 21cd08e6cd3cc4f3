import path from "node:path";
import { defineConfig } from "vitest/config";
import { SHORT_LIVED_NODE_FLAGS } from "./test/node-flags";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: [
      "lib/**/*.test.ts",
      "db/**/*.test.ts",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "app/**/*.test.ts",
      "components/**/*.test.ts",
      "runner/**/*.test.ts",
      "deploy/**/*.test.ts",
      "test/paperbench/**/*.test.ts",
      "test/layers/**/*.test.ts",
      "test/node-engines.test.ts",
    ],
    environment: "node",
    globalSetup: ["test/global-setup.ts"],
    // Integration tests open databases and import 11k-node rubrics: give them room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // server-only throws outside a react-server bundle; tests run the server code directly.
    alias: { "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts") },
    // Two files at a time (the machine's two cores): every file opens its own databases and temp dirs.
    maxWorkers: 2,
    execArgv: SHORT_LIVED_NODE_FLAGS,
  },
});
