import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";

/** A .tar.gz of a submission holding `reproduce.sh` with this body. */
export function scriptArchive(testInfo: TestInfo, name: string, script: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-run-"));
  fs.writeFileSync(path.join(dir, "reproduce.sh"), `#!/usr/bin/env bash\n${script}\n`);
  const file = testInfo.outputPath(`${name}.tar.gz`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync("tar", ["-czf", file, "-C", dir, "."]);
  fs.rmSync(dir, { recursive: true, force: true });
  return fs.readFileSync(file);
}

/** Staff upload a submission on `paperId` over the API (query: agent, run, variant, reproduce, …); its id. */
export async function uploadSubmission(
  page: Page,
  paperId: string,
  query: Record<string, string>,
  data: Buffer,
): Promise<string> {
  const res = await page.request.post(
    `/api/papers/${paperId}/submissions?${new URLSearchParams({ name: "run.tar.gz", ...query })}`,
    {
      headers: { "content-type": "application/octet-stream" },
      data,
    },
  );
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { submissionId: string }).submissionId;
}

/** Staff start the demo's Dummy judge on a Code-Dev submission (no reproduction needed); the run's id. */
export async function startDummyJudgeRun(page: Page, submissionId: string): Promise<string> {
  const { configs } = (await (await page.request.get("/api/judge/configs")).json()) as {
    configs: { id: string; kind: string }[];
  };
  const dummy = configs.find((c) => c.kind === "dummy")!;
  const started = await page.request.post("/api/judge/runs", {
    data: { submissionIds: [submissionId], configId: dummy.id, variant: "code-dev" },
  });
  expect(started.status(), await started.text()).toBe(200);
  return ((await started.json()) as { runs: { id: string }[] }).runs[0].id;
}
