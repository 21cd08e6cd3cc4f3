import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { demoJudgeInput, demoSubmissionCopy } from "@/server/judge/judge-fixtures.testutil";
import type { JudgeRubricNode, SubmissionFiles } from "../engine-contract";
import { gradeWithoutModel } from "./grade-submission";
import { placeholderEvidence } from "./placeholder-evidence";
import { planLeaves } from "./rubric-plan";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function memory(files: Record<string, string | null>): SubmissionFiles {
  return {
    list: async () => Object.keys(files).map((p) => ({ path: p, size: files[p]?.length ?? 1, mtimeMs: 0 })),
    read: async (p) => files[p] ?? null,
    walk: async () => [],
    readHead: async () => null,
  };
}

function leaf(key: string, category: string): JudgeRubricNode {
  return {
    key,
    id: key,
    requirements: key,
    weight: 1,
    task_category: category,
    finegrained_task_category: null,
    sub_tasks: [],
  };
}

const tree: JudgeRubricNode = {
  ...leaf("root", ""),
  task_category: null,
  sub_tasks: [leaf("dev", "Code Development"), leaf("ra", "Result Analysis")],
};
const leaves = planLeaves(tree, null);

describe("placeholderEvidence", () => {
  it("cites lines 1-3 of the first file shown: reproduce.sh first in the full variant, path order in Code-Dev", async () => {
    const files = memory({
      "b.py": "1\n2\n3\n4\n",
      "a.md": "one\ntwo\nthree\nfour",
      "reproduce.sh": "#!/bin/sh\necho\n",
    });
    const full = await placeholderEvidence(files, false, leaves);
    expect(full.get("dev")).toEqual([{ path: "reproduce.sh", start_line: 1, end_line: 2 }]);
    const codeDev = await placeholderEvidence(files, true, leaves);
    expect(codeDev.get("dev")).toEqual([{ path: "a.md", start_line: 1, end_line: 3 }]);
  });

  it("passes over empty, binary and skipped files; nothing to cite gives no evidence", async () => {
    const files = memory({ "a.md": "", "b.bin.py": null, "venv/x.py": "x\n", "c.py": "only line" });
    const cited = await placeholderEvidence(files, true, leaves);
    expect(cited.get("dev")).toEqual([{ path: "c.py", start_line: 1, end_line: 1 }]);
    expect((await placeholderEvidence(memory({ "data.bin": "x" }), true, leaves)).get("dev")).toEqual([]);
  });

  it("the dummy and random judges cite files of the demo submission, within their lines, and say they are placeholders", async () => {
    const dir = demoSubmissionCopy();
    dirs.push(dir);
    for (const codeDev of [false, true]) {
      for (const kind of ["dummy", "random"] as const) {
        const { verdicts } = await gradeWithoutModel(demoJudgeInput(dir, { codeDev }), kind, 7);
        expect(verdicts.length).toBeGreaterThan(0);
        for (const v of verdicts) {
          expect(v.evidence).toHaveLength(1);
          const [e] = v.evidence;
          const text = fs.readFileSync(path.join(dir, e.path), "utf8");
          expect(e.start_line).toBe(1);
          expect(e.end_line).toBeGreaterThanOrEqual(1);
          expect(e.end_line).toBeLessThanOrEqual(Math.min(3, text.split("\n").length));
          expect(v.explanation).toContain(`first lines of ${e.path}`);
          if (kind === "dummy") expect(v.explanation).toMatch(/^The dummy judge/);
        }
        if (!codeDev) expect(verdicts.every((v) => v.evidence[0].path === "reproduce.sh")).toBe(true);
      }
    }
  });
});
