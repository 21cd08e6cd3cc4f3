import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { DEMO_RUBRIC_PATH, readDemoRubric, type RubricJson } from "./support/files";
import { expect, test } from "./support/fixtures";
import { STAFF } from "./support/users";

/** A graded tree of a rubric: leaves met except those whose id is in `failed`. */
function graded(node: RubricJson, failed: ReadonlySet<string>): object {
  const leaf = node.sub_tasks.length === 0;
  return {
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    score: leaf && failed.has(node.id) ? 0 : 1,
    valid_score: true,
    task_category: node.task_category,
    explanation: leaf ? "Checked." : "Aggregated score from sub-tasks.",
    judge_metadata: null,
    sub_tasks: node.sub_tasks.map((c) => graded(c, failed)),
  };
}

interface Row {
  key: string;
  parentKey: string | null;
  weight: number;
  requirements: string;
  nodeId: string;
}

async function operate(page: Page, paperId: string, clientOpId: string, op: object): Promise<void> {
  const { revision } = await (await page.request.get(`/api/papers/${paperId}/rubric/nodes`)).json();
  const res = await page.request.post(`/api/papers/${paperId}/rubric/operations`, {
    data: { clientOpId, baseRevision: revision, op },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("after a rubric change the paper page lists the grading it moves; staff re-grade only the affected leaves", async ({
  asUser,
}) => {
  const paperId = `e2e-consequences-${Date.now()}`;
  const page = await asUser(STAFF);
  expect(
    (await page.request.post("/api/papers", { data: { id: paperId, title: `Consequences ${paperId}` } })).status(),
  ).toBe(201);
  expect(
    (
      await page.request.put(`/api/papers/${paperId}/rubric`, {
        headers: { "content-type": "application/json" },
        data: await fs.readFile(DEMO_RUBRIC_PATH),
      })
    ).status(),
  ).toBe(200);
  const tree = readDemoRubric().tree;
  const firstBranch = tree.sub_tasks[0];
  const failedLeaf = firstBranch.sub_tasks[0].sub_tasks[0];
  const imported = await page.request.post(`/api/papers/${paperId}/gradings`, {
    data: { file: graded(tree, new Set([failedLeaf.id])), agent: "Consequences agent", run: 1, human: true },
  });
  expect(imported.status(), await imported.text()).toBe(201);

  await page.goto(`/papers/${paperId}`);
  await expect(page.getByTestId("gradings-panel").getByTestId("grading-row")).toHaveCount(1);
  await expect(page.getByTestId("rubric-consequences")).toHaveCount(0);

  // The first branch weighs more (its failed leaf counts more), and a leaf of another branch is reworded.
  const { nodes } = (await (await page.request.get(`/api/papers/${paperId}/rubric/nodes`)).json()) as { nodes: Row[] };
  const branch = nodes.find((n) => n.nodeId === firstBranch.id)!;
  const reworded = nodes.find((n) => n.nodeId === tree.sub_tasks[1].sub_tasks[0].sub_tasks[0].id)!;
  await operate(page, paperId, "consequences-weight", {
    kind: "update",
    key: branch.key,
    fields: { weight: branch.weight * 4 },
  });
  await operate(page, paperId, "consequences-words", {
    kind: "update",
    key: reworded.key,
    fields: { requirements: `${reworded.requirements} Reworded.` },
  });

  await page.reload();
  const panel = page.getByTestId("rubric-consequences");
  await expect(panel).toContainText("1 grading move");
  await expect(panel.getByTestId("rubric-consequence")).toContainText("Consequences agent · run 1");
  await expect(panel.getByTestId("rubric-consequence-new")).toContainText("needs re-grade of 1 leaf");
  await expect(panel.getByTestId("rubric-consequence")).toContainText("1 changed");

  await panel.getByTestId("regrade-affected").click();
  await expect(
    page.getByText("1 grading re-pinned: 0 judging their affected leaves, 1 waiting for review"),
  ).toBeVisible();
  await expect(page.getByTestId("rubric-consequences")).toHaveCount(0);
  // The reworded leaf waits for review: its verdict is invalid and counts 0 until someone scores it.
  const { gradings } = await (await page.request.get(`/api/papers/${paperId}/gradings`)).json();
  const leaf = await (await page.request.get(`/api/gradings/${gradings[0].id}/leaves/${reworded.key}`)).json();
  expect(JSON.stringify(leaf)).toContain("Needs review");
});
