/**
 * Two studio processes (`next start`) on one PostgreSQL database share one live stream: a change
 * posted through instance A reaches a follower connected to instance B (LISTEN/NOTIFY), in order
 * and without gaps, and a follower that was away catches up from the log on either instance.
 * Needs DATABASE_URL (skipped without it; a failure when CI=true).
 */
import { describe, expect, it } from "vitest";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { DEMO_PAPER_ID, api, postOperation, waitFor, type Studio } from "./harness";
import { twoStudiosSuite } from "./studio-suite";

function twoInstancesSuite() {
  describe("two studio instances on one PostgreSQL database", () => {
    const two = twoStudiosSuite("two-instances");

    const nodes = async (studio: Studio, cookie: string) => {
      const answer = await api<{ revision: number; nodes: NodeRow[] }>(
        studio.url,
        cookie,
        "GET",
        `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`,
      );
      expect(answer.status).toBe(200);
      return answer.body;
    };

    const weightOp = (key: string, weight: number): RubricOperation => ({ kind: "update", key, fields: { weight } });

    it(`a change posted through A reaches a follower on B (how soon: bench's coedit_cross_instance_p95_ms)`, async () => {
      const start = await nodes(two.a, two.cookieA);
      const onB = await two.follow(two.b, two.cookieB, start.revision);
      const leaf = start.nodes.find((n) => n.parentKey !== null)!;
      const op = weightOp(leaf.key, 7);
      const clientOpId = `a-${crypto.randomUUID()}`;
      const posted = performance.now();
      const answer = await postOperation(two.a.url, two.cookieA, DEMO_PAPER_ID, {
        clientOpId,
        baseRevision: start.revision,
        op,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const answered = performance.now();
      const event = await waitFor(`the operation on B`, () => onB.events.find((e) => e.clientOpId === clientOpId));
      const arrived = performance.now();
      console.log(
        `A → B: answered in ${(answered - posted).toFixed(1)} ms, on B ${(arrived - posted).toFixed(1)} ms after the POST`,
      );
      expect(event).toMatchObject({ revision: answer.body.revision, kind: "update", clientOpId, op });
      expect(event.userId).toBeTruthy();
      // B serves the same rubric.
      const onBNow = await nodes(two.b, two.cookieB);
      expect(onBNow.revision).toBe(answer.body.revision);
      expect(onBNow.nodes.find((n) => n.key === leaf.key)!.weight).toBe(7);
      expect(onB.problems).toEqual([]);
    });

    it("changes through both instances at once reach followers on both, in order, without gaps", async () => {
      const start = await nodes(two.a, two.cookieA);
      const onA = await two.follow(two.a, two.cookieA, start.revision);
      const onB = await two.follow(two.b, two.cookieB, start.revision);
      const leaves = start.nodes.filter((n) => n.parentKey !== null);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const [studio, cookie] = i % 2 === 0 ? [two.a, two.cookieA] : [two.b, two.cookieB];
          return postOperation(studio.url, cookie, DEMO_PAPER_ID, {
            clientOpId: `both-${i}-${crypto.randomUUID()}`,
            baseRevision: start.revision,
            op: weightOp(leaves[i % leaves.length].key, i % 5),
          });
        }),
      );
      expect(answers.map((x) => x.status)).toEqual(answers.map(() => 200));
      const last = Math.max(...answers.map((x) => x.body.revision!));
      expect(last).toBe(start.revision + 30);
      const expected = Array.from({ length: 30 }, (_, i) => start.revision + 1 + i);
      for (const [name, f] of [
        ["A", onA],
        ["B", onB],
      ] as const) {
        // Thirty at once through both instances: the limit is for the last of them.
        await waitFor(`every change on ${name}`, () => f.events.length >= 30);
        expect(
          f.events.map((e) => e.revision),
          `revisions on ${name}`,
        ).toEqual(expected);
        expect(f.problems).toEqual([]);
      }
      expect(onB.events).toEqual(onA.events);
    });

    it("a follower of B that was away catches up from the log with what A applied meanwhile (Last-Event-ID)", async () => {
      const start = await nodes(two.a, two.cookieA);
      const onB = await two.follow(two.b, two.cookieB, start.revision);
      const leaf = start.nodes.find((n) => n.parentKey !== null)!;
      const first = await postOperation(two.a.url, two.cookieA, DEMO_PAPER_ID, {
        clientOpId: crypto.randomUUID(),
        baseRevision: start.revision,
        op: weightOp(leaf.key, 1),
      });
      await waitFor("the first change on B", () => onB.feed.lastEventId === first.body.revision);
      await onB.feed.close();
      const missed: number[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await postOperation(two.a.url, two.cookieA, DEMO_PAPER_ID, {
          clientOpId: crypto.randomUUID(),
          baseRevision: start.revision,
          op: weightOp(leaf.key, 2 + i),
        });
        missed.push(answer.body.revision!);
      }
      await onB.feed.connect(onB.feed.lastEventId, "header");
      await waitFor("the missed changes on B", () => onB.feed.lastEventId === missed.at(-1));
      expect(onB.events.map((e) => e.revision)).toEqual([first.body.revision, ...missed]);
      // And live again after the catch-up.
      const after = await postOperation(two.a.url, two.cookieA, DEMO_PAPER_ID, {
        clientOpId: crypto.randomUUID(),
        baseRevision: start.revision,
        op: weightOp(leaf.key, 9),
      });
      await waitFor("the next change on B", () => onB.feed.lastEventId === after.body.revision);
      expect(onB.problems).toEqual([]);
    });
  });
}

if (process.env.DATABASE_URL) twoInstancesSuite();
else if (process.env.CI === "true") {
  describe("two studio instances on one PostgreSQL database", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the two-instance test cannot run");
    });
  });
} else
  describe.skip("two studio instances on one PostgreSQL database (set DATABASE_URL to run)", () =>
    it("needs DATABASE_URL", () => {}));
