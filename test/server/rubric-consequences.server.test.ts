/**
 * A rubric change's consequences over HTTP (issue 14 item 6), on the built studio with the demo
 * seed: an author's weight change lists the demo gradings whose score moves, with the new score at
 * once; the author sees the list but may not re-grade; staff re-grade them in one request, no judge
 * run is needed, the scores are the ones listed, and the list is empty afterwards. A requirement
 * change then lists the leaf to grade.
 */
import { describe, expect, it } from "vitest";
import type { RegradeResult, RubricConsequences } from "@/lib/grading/rubric-consequences";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { AUTHOR, DEMO_PAPER_ID, STAFF, api, postOperation, signIn } from "./harness";
import { studioSuite } from "./studio-suite";

const P = `/api/papers/${DEMO_PAPER_ID}`;

describe("a rubric change's consequences", () => {
  const studio = studioSuite("pglite", "consequences", { signInStaff: false });

  it("lists the gradings a weight change moves, and staff re-grade them at once", async () => {
    const staff = await signIn(studio.url, STAFF.email, STAFF.password);
    const author = await signIn(studio.url, AUTHOR.email, AUTHOR.password);
    const before = await api<RubricConsequences>(studio.url, author, "GET", `${P}/rubric/consequences`);
    expect(before.status).toBe(200);
    expect(before.body.gradings).toEqual([]);
    expect(before.body.unaffected).toBeGreaterThan(0);

    const rubric = (await api<{ revision: number; nodes: NodeRow[] }>(studio.url, author, "GET", `${P}/rubric/nodes`))
      .body;
    const root = rubric.nodes.find((n) => n.parentKey === null)!;
    const branch = rubric.nodes.find((n) => n.parentKey === root.key)!;
    const op = await postOperation(studio.url, author, DEMO_PAPER_ID, {
      clientOpId: "consequences-weight",
      baseRevision: rubric.revision,
      op: { kind: "update", key: branch.key, fields: { weight: branch.weight + 7 } },
    });
    expect(op.status, JSON.stringify(op.body)).toBe(200);

    const after = await api<RubricConsequences>(studio.url, author, "GET", `${P}/rubric/consequences`);
    expect(after.body.revision).toBe(op.body.revision);
    expect(after.body.gradings.length).toBeGreaterThan(0);
    for (const g of after.body.gradings) {
      expect(g.leavesToGrade).toBe(0);
      expect(g.newScore).not.toBeNull();
      expect(g.counts.reweighted).toBeGreaterThan(0);
    }
    const ids = after.body.gradings.map((g) => g.gradingId);
    // An author sees the consequences but may not re-grade; a bad body names the field.
    expect((await api(studio.url, author, "POST", `${P}/rubric/consequences`, { gradingIds: ids })).status).toBe(403);
    const bad = await api<{ error: { details: { path: string }[] } }>(
      studio.url,
      staff,
      "POST",
      `${P}/rubric/consequences`,
      { gradingIds: ["nope"] },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toMatch(/^gradingIds/);

    const regraded = await api<{ results: RegradeResult[] }>(studio.url, staff, "POST", `${P}/rubric/consequences`, {
      gradingIds: ids,
    });
    expect(regraded.status, JSON.stringify(regraded.body)).toBe(200);
    expect(regraded.body.results.map((r) => [r.gradingId, r.outcome, r.score])).toEqual(
      after.body.gradings.map((g) => [g.gradingId, "recomputed", g.newScore]),
    );
    expect((await api<RubricConsequences>(studio.url, staff, "GET", `${P}/rubric/consequences`)).body.gradings).toEqual(
      [],
    );

    // A requirement change: each grading now needs that one leaf graded.
    const leaf = rubric.nodes.find((n) => !rubric.nodes.some((c) => c.parentKey === n.key))!;
    const edit = await postOperation(studio.url, author, DEMO_PAPER_ID, {
      clientOpId: "consequences-requirement",
      baseRevision: op.body.revision!,
      op: { kind: "update", key: leaf.key, fields: { requirements: `${leaf.requirements} (reworded)` } },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const changed = (await api<RubricConsequences>(studio.url, staff, "GET", `${P}/rubric/consequences`)).body.gradings;
    expect(changed.length).toBeGreaterThan(0);
    for (const g of changed) expect(g).toMatchObject({ newScore: null, leavesToGrade: 1, counts: { changed: 1 } });
  });
});
