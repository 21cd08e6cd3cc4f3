import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensurePgliteTemplate } from "@/db/pglite-template";
import { bundleClis } from "@/test/cli-process";

// Every integration test opens fresh PGlite directories: prepare the migrated template once. The
// command-line tests start their CLIs from bundles made once here (test/cli-process.ts), and the
// server suite's studios share one code cache for the run (test/node-code-cache.mjs).
export default async function setup(project: TestProject) {
  await ensurePgliteTemplate();
  const bundles = await bundleClis();
  project.provide("cliBundleDir", bundles.dir);
  const codeCacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "rubric-studio-code-cache-"));
  project.provide("codeCacheDir", codeCacheDir);
  return () => {
    bundles.remove();
    fs.rmSync(codeCacheDir, { recursive: true, force: true });
  };
}
