/**
 * The studio's command lines as the tests start them: each entry point is bundled once per test run
 * (test/global-setup.ts) and started with plain node. tsx, behind `npm run rubric` and the others,
 * applies the same esbuild transform on the fly, but pays ~1 s of CPU per process to compile and
 * resolve a few hundred modules (2 s for the runner), and the suites start about 200 of them.
 * Packages stay outside the bundle, so node resolves them exactly as under tsx, with the
 * react-server condition where the npm script gives it. A test per command line still goes through
 * `npm run` or tsx (lib/grading/cli.test.ts, runner/main.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { SHORT_LIVED_NODE_FLAGS } from "./node-flags";

export const CLI_ENTRIES = {
  cli: { file: "scripts/cli.ts", reactServer: true },
  "evaluation-cli": { file: "scripts/evaluation-cli.ts", reactServer: true },
  "judge-cli": { file: "scripts/judge-cli.ts", reactServer: true },
  // The processes the server suite starts beside a studio: `npm run runner` and `npm run worker`.
  runner: { file: "runner/main.ts", reactServer: false },
  worker: { file: "scripts/worker.ts", reactServer: true },
} as const;
export type CliEntry = keyof typeof CLI_ENTRIES;

declare module "vitest" {
  export interface ProvidedContext {
    cliBundleDir: string;
  }
}

/** Bundles every entry into a fresh folder under node_modules/.cache (inside the repository, so bare imports resolve). */
export async function bundleClis(): Promise<{ dir: string; remove: () => void }> {
  const { build } = await import("esbuild");
  const cache = path.join(process.cwd(), "node_modules", ".cache");
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, "rubric-studio-cli-"));
  await build({
    entryPoints: Object.fromEntries(Object.entries(CLI_ENTRIES).map(([name, entry]) => [name, entry.file])),
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
  });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const conditions = (entry: CliEntry) => (CLI_ENTRIES[entry].reactServer ? ["--conditions=react-server"] : []);

/** node's arguments that run one command line with `args`. */
export function cliArgs(entry: CliEntry, ...args: string[]): string[] {
  return [...SHORT_LIVED_NODE_FLAGS, ...conditions(entry), path.join(inject("cliBundleDir"), `${entry}.mjs`), ...args];
}

/**
 * node's arguments that start `entry`'s program in one process (so a signal reaches it): its bundle
 * under vitest, else (a benchmark, outside vitest) its source through tsx, as its npm script runs it.
 */
export function programArgs(entry: CliEntry): string[] {
  if (process.env.VITEST) return cliArgs(entry);
  return [...conditions(entry), "--import", "tsx", path.resolve(import.meta.dirname, "..", CLI_ENTRIES[entry].file)];
}
