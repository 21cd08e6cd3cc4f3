/**
 * The studio's command lines as the tests start them: each entry point is bundled once per test run
 * (test/global-setup.ts) and started with plain node. tsx, behind `npm run rubric` and the others,
 * applies the same esbuild transform on the fly, but pays ~1 s of CPU per process to compile and
 * resolve a few hundred modules, and the suites start about 150 of them. Packages stay outside the
 * bundle, so node resolves them exactly as under tsx (with the react-server condition). A test per
 * command line still goes through `npm run` (lib/grading/cli.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { SHORT_LIVED_NODE_FLAGS } from "./node-flags";

export const CLI_ENTRIES = {
  cli: "scripts/cli.ts",
  "evaluation-cli": "scripts/evaluation-cli.ts",
  "judge-cli": "scripts/judge-cli.ts",
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
    entryPoints: CLI_ENTRIES,
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

/** node's arguments that run one command line with `args`. */
export function cliArgs(entry: CliEntry, ...args: string[]): string[] {
  return [
    ...SHORT_LIVED_NODE_FLAGS,
    "--conditions=react-server",
    path.join(inject("cliBundleDir"), `${entry}.mjs`),
    ...args,
  ];
}
