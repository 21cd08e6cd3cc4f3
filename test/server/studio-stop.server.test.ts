/**
 * A studio told to stop (SIGTERM, as Kubernetes and `kill` send it) stops while a browser follows
 * its live streams and a runner long-polls it for work. Before server/stopping.ts it never did:
 * Next.js's close waits for every open request, a stream never ends and a runner renews its claim
 * on the same connection, so the process ran until it was killed. Now the streams end, the long
 * poll is answered at once with "no job" and its connection closed, and the process exits on its
 * own with SIGTERM's code (143). The test waits on each event; its timeout is the only bound.
 */
import { describe, expect, it } from "vitest";
import { SseReader } from "@/test/sse-frames";
import { DEMO_PAPER_ID, api, waitFor } from "./harness";
import { studioSuite } from "./studio-suite";

/** The Server-Sent Events stream at `path`, once it has sent its first event; `ended` resolves when the server ends it. */
async function openStream(url: string, cookie: string, path: string, firstEvent: string) {
  const res = await fetch(`${url}${path}`, { headers: { cookie, accept: "text/event-stream" } });
  expect(res.status, path).toBe(200);
  const reader = new SseReader(res.body!);
  await reader.next((frame) => frame.event === firstEvent, 60_000);
  const ended = (async () => {
    for (;;) {
      try {
        await reader.next(() => true, 60_000);
      } catch (err) {
        if ((err as Error).message === "the stream ended") return true;
        if ((err as Error).message !== "no matching event in time") throw err;
      }
    }
  })();
  return { ended };
}

describe("a studio told to stop (SIGTERM)", () => {
  const suite = studioSuite("pglite", "studio-stop");

  it("ends its live streams and a runner's long poll, and exits on its own", async () => {
    const { url, staff } = suite;
    const rubric = await openStream(url, staff, `/api/papers/${DEMO_PAPER_ID}/rubric/events?since=0`, "presence");
    const inbox = await openStream(url, staff, "/api/notifications/stream", "unread");

    // A runner (this process, speaking the protocol as runner/main.ts does) long-polls for a job.
    const { token } = (await api<{ token: string }>(url, staff, "POST", "/api/runners/tokens", { name: "stop check" }))
      .body;
    const runnerCall = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const registered = await runnerCall("/api/runner/register", {
      name: "stop check",
      capabilities: { gpus: [], cpus: 1, memoryBytes: 1 << 30, backend: "local", maxJobs: 1 },
    });
    expect(registered.status, await registered.clone().text()).toBe(200);
    const { runnerId } = (await registered.json()) as { runnerId: string };
    const lastSeen = async () =>
      (
        await api<{ runners: { id: string; lastSeenAt: string }[] }>(url, staff, "GET", "/api/runners")
      ).body.runners.find((r) => r.id === runnerId)?.lastSeenAt;
    const registeredAt = await lastSeen();
    const claim = runnerCall("/api/runner/claim", { runnerId, freeGpus: [], freeSlots: 1, waitS: 30 });
    // The claim has reached its handler (which marks the runner seen) and is waiting for a job.
    await waitFor("the claim in its long poll", async () => ((await lastSeen()) !== registeredAt ? true : undefined));

    process.kill(suite.studio.pid, "SIGTERM");

    const answer = await claim;
    expect(answer.status).toBe(204);
    expect(answer.headers.get("connection")).toBe("close");
    expect(await rubric.ended).toBe(true);
    expect(await inbox.ended).toBe(true);
    // Next.js's own close finished: SIGTERM's exit code, not a kill.
    expect(await suite.studio.exited).toBe(143);
  });
});
