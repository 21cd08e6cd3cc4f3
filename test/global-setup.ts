import type { TestProject } from "vitest/node";
import { ensurePgliteTemplate } from "@/db/pglite-template";
import { bundleClis } from "@/test/cli-process";

// Every integration test opens fresh PGlite directories: prepare the migrated template once. The
// command-line tests start their CLIs from bundles made once here (test/cli-process.ts).
export default async function setup(project: TestProject) {
  await ensurePgliteTemplate();
  const bundles = await bundleClis();
  project.provide("cliBundleDir", bundles.dir);
  return bundles.remove;
}
