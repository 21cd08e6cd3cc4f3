/**
 * The layer rules refuse what they say they refuse: each probe is a real file in a layer that makes
 * one forbidden import, cruised with the project's own config (so a typo in a rule's regex, or a
 * package dependency-cruiser stops seeing, fails here rather than letting imports through). Each
 * probe file exists only while dependency-cruiser reads it.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const node = (script: string, args: string[]) =>
  spawnSync(process.execPath, [path.join(root, script), ...args], { cwd: root, encoding: "utf8" });

/** Writes the probes, runs `check` while they exist, and removes them whatever happens. */
function withProbes<T>(probes: Record<string, string>, check: (files: string[]) => T): T {
  const files = Object.keys(probes);
  try {
    for (const file of files) writeFileSync(path.join(root, file), probes[file], { flag: "wx" });
    return check(files);
  } finally {
    for (const file of files) rmSync(path.join(root, file), { force: true });
  }
}

const probes = {
  "lib/__probe_pg__.ts": 'import { Pool } from "pg";\nexport const probe = Pool;\n',
  "lib/__probe_openai__.ts": 'import OpenAI from "openai";\nexport const probe = OpenAI;\n',
  "lib/__probe_s3__.ts": 'import { S3Client } from "@aws-sdk/client-s3";\nexport const probe = S3Client;\n',
  "lib/__probe_server_only__.ts": 'import "server-only";\nexport const probe = 1;\n',
  "lib/__probe_zod__.ts": 'import { z } from "zod";\nexport const probe = z;\n',
  "components/__probe_fs__.ts": 'import { readFileSync } from "node:fs";\nexport const probe = readFileSync;\n',
  "components/__probe_pg__.ts": 'import { Pool } from "pg";\nexport const probe = Pool;\n',
  "components/__probe_react__.ts": 'import { useState } from "react";\nexport const probe = useState;\n',
  "runner/__probe_drizzle__.ts": 'import { sql } from "drizzle-orm";\nexport const probe = sql;\n',
  "runner/__probe_next__.ts": 'import { NextResponse } from "next/server";\nexport const probe = NextResponse;\n',
  "runner/__probe_zod__.ts": 'import { z } from "zod";\nexport const probe = z;\n',
  // server/ tiers: up a level, a sibling of the same level, up a tier, down a tier, and a file with no tier.
  "server/gradings/__probe_up__.ts":
    'import { scopeOf } from "@/server/reviews/progress";\nexport const probe = scopeOf;\n',
  "server/reviews/__probe_sibling__.ts":
    'import { judgeSourceOf } from "@/server/judge/judge-submission-files";\nexport const probe = judgeSourceOf;\n',
  "server/live/__probe_up_tier__.ts":
    'import { listPaperGradings } from "@/server/gradings/read-gradings";\nexport const probe = listPaperGradings;\n',
  "server/reviews/__probe_down__.ts":
    'import { getGradingRows } from "@/server/gradings/pinned-grading";\nexport const probe = getGradingRows;\n',
  "server/__probe_untiered__.ts": 'import { z } from "zod";\nexport const probe = z;\n',
};

describe("package and server/ tier rules (.dependency-cruiser.cjs)", () => {
  let rulesBroken: Map<string, Set<string>>;

  beforeAll(() => {
    rulesBroken = withProbes(probes, (files) => {
      const run = node("node_modules/.bin/depcruise", [
        ...files,
        "--config",
        ".dependency-cruiser.cjs",
        "--output-type",
        "json",
      ]);
      const { summary } = JSON.parse(run.stdout) as {
        summary: { violations: { from: string; rule: { name: string } }[] };
      };
      const broken = new Map(files.map((file) => [file, new Set<string>()]));
      for (const v of summary.violations) broken.get(v.from)?.add(v.rule.name);
      return broken;
    });
  });

  it.each([
    ["lib/__probe_pg__.ts", "lib-packages-are-pure"],
    ["lib/__probe_openai__.ts", "lib-packages-are-pure"],
    ["lib/__probe_s3__.ts", "lib-packages-are-pure"],
    ["lib/__probe_server_only__.ts", "lib-packages-are-pure"],
    ["components/__probe_fs__.ts", "components-use-no-node-builtins"],
    ["components/__probe_pg__.ts", "components-use-no-server-packages"],
    ["runner/__probe_drizzle__.ts", "runner-packages"],
    ["runner/__probe_next__.ts", "runner-packages"],
    ["server/gradings/__probe_up__.ts", "server-tier-gradings"],
    ["server/reviews/__probe_sibling__.ts", "server-tier-reviews"],
    ["server/live/__probe_up_tier__.ts", "server-tier-live"],
    ["server/__probe_untiered__.ts", "server-folders-have-a-tier"],
  ])("%s is refused by %s", (file, rule) => {
    expect([...rulesBroken.get(file)!]).toContain(rule);
  });

  it.each([
    "lib/__probe_zod__.ts",
    "components/__probe_react__.ts",
    "runner/__probe_zod__.ts",
    "server/reviews/__probe_down__.ts",
  ])("%s, a package its layer uses or a folder below it, passes", (file) => {
    expect([...rulesBroken.get(file)!]).toEqual([]);
  });
});

describe("folder cycles (scripts/check-folder-cycles.mjs)", () => {
  it("fails on an import from lib/grading back into lib/evaluations, naming the file edge", () => {
    const probe = "lib/grading/__probe_cycle__.ts";
    const run = withProbes(
      {
        [probe]:
          'import { DEFAULT_POLICIES } from "@/lib/evaluations/default-policies";\nexport const probe = DEFAULT_POLICIES;\n',
      },
      () => node("scripts/check-folder-cycles.mjs", ["lib"]),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("lib/grading → lib/evaluations");
    expect(run.stderr).toContain(`${probe} → lib/evaluations/default-policies.ts`);
  });

  it("passes on lib/ as it is", () => {
    const run = node("scripts/check-folder-cycles.mjs", ["lib"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

describe("the job platform's rule (.dependency-cruiser.cjs)", () => {
  it("refuses an import from server/jobs into a feature folder, and lets db/, lib/ and server/store.ts through", () => {
    const feature = "server/jobs/__probe_feature__.ts";
    const allowed = "server/jobs/__probe_platform__.ts";
    const broken = withProbes(
      {
        [feature]:
          'import { advanceCell } from "@/server/evaluations/pipeline/advance-cell";\nexport const probe = advanceCell;\n',
        [allowed]:
          'import { getJobById } from "@/db/queries/jobs";\nimport { JOB_KINDS } from "@/lib/jobs/states";\nimport { getStore } from "@/server/store";\nexport const probe = [getJobById, JOB_KINDS, getStore];\n',
      },
      (files) => {
        const run = node("node_modules/.bin/depcruise", [
          ...files,
          "--config",
          ".dependency-cruiser.cjs",
          "--output-type",
          "json",
        ]);
        const { summary } = JSON.parse(run.stdout) as {
          summary: { violations: { from: string; rule: { name: string } }[] };
        };
        return summary.violations.filter((v) => v.from.startsWith("server/jobs/__probe_"));
      },
    );
    expect(broken.filter((v) => v.from === feature).map((v) => v.rule.name)).toContain(
      "jobs-platform-knows-no-feature",
    );
    expect(broken.filter((v) => v.from === allowed)).toEqual([]);
  });
});
