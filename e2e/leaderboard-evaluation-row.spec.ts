/**
 * Evaluations on the leaderboard (issue 14): PaperBench's runs folder for a new agent (three runs
 * of a paper of its own with the demo rubric, run 2's reproduction failed but was judged, so its score counts as PaperBench
 * counts it) is ingested over the API; staff set review
 * sampling and sample the gradings for the demo grader, who scores the sampled leaves blind. The
 * agent's row then says which policy produced its number and carries the judge agreement badge;
 * its breakdown shows the evaluation's setup. The demo paper's agents, on their board, keep
 * theirs.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { serializeJudgeOutput } from "../lib/grading/serialize";
import { AS_GRADED_BASIS } from "../lib/leaderboard/types";
import { gradeDemoRubric } from "../server/evaluations/paperbench-runs.testutil";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { DEMO_PAPER, GRADER, STAFF } from "./support/users";

test.describe.configure({ timeout: 120_000 });

const AGENT = "E2E Evaluated Agent";
const PAPER_ID = `e2e-evaluated-${crypto.randomBytes(3).toString("hex")}`;

/** `runs/<group>/<paper>_<n>/grade.json` per run: the demo rubric graded by `patterns`, run 2's reproduction failed. */
function runsArchive(root: string): string {
  const patterns = [
    [1, 0, 1],
    [1, 1, 0],
    [0, 1],
  ];
  patterns.forEach((pattern, i) => {
    const dir = path.join(root, "runs", `2025-05-0${i + 1}T10-00-00-UTC_run-group_e2e`, `${PAPER_ID}_e2e-run-${i + 1}`);
    fs.mkdirSync(dir, { recursive: true });
    const judgeOutput = JSON.parse(
      serializeJudgeOutput(gradeDemoRubric(pattern), { judgeType: "simple", gradedAt: "2025-05-01T12-00-00-UTC" }),
    );
    const grade = {
      paperbench_result: {
        paper_id: PAPER_ID,
        run_id: `${PAPER_ID}_e2e-run-${i + 1}`,
        submission_exists: true,
        skipped_reproduction: false,
        code_only: false,
        resources_provided: false,
        judge_output: judgeOutput,
        reproduction_metadata: i === 1 ? { exit_code: 1, timedout: false, repro_script_exists: true } : null,
      },
      score: judgeOutput.score,
    };
    fs.writeFileSync(path.join(dir, "grade.json"), JSON.stringify(grade));
  });
  const archive = path.join(root, "runs.tar.gz");
  execFileSync("tar", ["-czf", archive, "-C", root, "runs"]);
  return archive;
}

test("an evaluated agent's row says which policy produced its number and shows the judge agreement badge", async ({
  asUser,
}, testInfo) => {
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, PAPER_ID);
  // Review sampling assigns the paper's graders only.
  const member = await staff.request.post(`/api/papers/${PAPER_ID}/members`, {
    data: { email: GRADER.email, role: "grader" },
  });
  expect(member.status()).toBe(201);
  const archive = runsArchive(testInfo.outputPath("ingest"));
  const ingested = await staff.request.post(
    `/api/evaluations/ingest?${new URLSearchParams({ agent: AGENT, name: "E2E leaderboard evaluation" })}`,
    {
      data: fs.readFileSync(archive),
      headers: { "content-type": "application/gzip" },
    },
  );
  expect(ingested.status(), await ingested.text()).toBe(201);
  const { evaluationId } = (await ingested.json()) as { evaluationId: string };

  // Review sampling: 4 leaves per grading, to the demo grader.
  const settings = await staff.request.put(`/api/evaluations/${evaluationId}/review-sampling`, {
    data: { sampleSize: 4, graders: [GRADER.email] },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  const sampledAnswer = await staff.request.post(`/api/evaluations/${evaluationId}/review-sampling`, { data: {} });
  expect(sampledAnswer.status(), await sampledAnswer.text()).toBe(200);
  const { sampled } = (await sampledAnswer.json()) as {
    sampled: { gradingId: string; grader: string; nodeKeys: string[] }[];
  };
  expect(sampled).toHaveLength(3);
  expect(sampled.every((s) => s.grader === GRADER.email && s.nodeKeys.length === 4)).toBe(true);

  // The grader scores every sampled leaf blind (1 each: the judge gave some 0, so they disagree there).
  const grader = await asUser(GRADER);
  for (const s of sampled) {
    for (const nodeKey of s.nodeKeys) {
      const committed = await grader.request.post(`/api/gradings/${s.gradingId}/scores`, {
        data: { nodeKey, score: 1 },
      });
      expect(committed.status(), await committed.text()).toBe(201);
    }
  }

  // The agreement is on the evaluation's summary.
  const summary = (await (await staff.request.get(`/api/evaluations/${evaluationId}`)).json()) as {
    agreement: { f1: number; leaves: number } | null;
  };
  expect(summary.agreement?.leaves).toBe(12);

  // The public board of the paper: the evaluation covers that paper only, and other specs add papers
  // of their own to the studio's split, where the row would be "as graded".
  const { splits } = (await (await staff.request.get("/api/leaderboard")).json()) as { splits: { name: string }[] };
  const split = splits.some((s) => s.name === "studio") ? "studio" : "all";
  const boardQuery = `split=${split}&paper=${PAPER_ID}`;
  // Over the API: the row's basis and agreement.
  const board = (await (await staff.request.get(`/api/leaderboard?${boardQuery}`)).json()) as {
    agents: {
      name: string;
      isHuman: boolean;
      basis: { kind: string; label: string };
      agreement: { leaves: number } | null;
    }[];
  };
  const apiRow = board.agents.find((a) => a.name === AGENT)!;
  expect(apiRow).toMatchObject({ isHuman: false, basis: { kind: "evaluation" }, agreement: { leaves: 12 } });
  // The demo's agents, on the demo paper's board, have no evaluation: their rows are as graded.
  const demoBoard = (await (
    await staff.request.get(`/api/leaderboard?split=${split}&paper=${DEMO_PAPER.id}`)
  ).json()) as typeof board;
  const demoRows = demoBoard.agents.filter((a) => a.name.startsWith("Demo"));
  expect(demoRows.length).toBeGreaterThan(0);
  expect(demoRows.every((a) => a.basis.kind === "as_graded" && a.agreement === null)).toBe(true);
  await staff.goto(`/leaderboard?${boardQuery}`);
  const row = staff.locator(`[data-testid="leaderboard-row"][data-agent="${AGENT}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("row-policy")).toHaveAttribute("data-basis", "evaluation");
  await expect(row.getByTestId("row-policy")).toContainText(
    "mean of 3 runs · every reproduction that ran is judged, failed or timed out too · a reproduction with nothing to judge counts 0 · invalid leaves count 0",
  );
  await expect(row.getByTestId("agreement-badge")).toHaveText(/^judge agreement \d\.\d\d ± \d\.\d\d on 12 leaves$/);
  expect(demoRows[0].basis.label).toBe(AS_GRADED_BASIS.label);

  await row.getByTestId("toggle-breakdown").click();
  const setup = staff.getByTestId("evaluation-setup");
  await expect(setup).toBeVisible();
  await expect(setup.getByTestId("setup-evaluation")).toHaveText("E2E leaderboard evaluation");
  await expect(setup.getByTestId("setup-resources-provided")).toHaveText("no");
  await expect(setup.getByTestId("setup-time-limit")).toHaveText("not reported");
});
