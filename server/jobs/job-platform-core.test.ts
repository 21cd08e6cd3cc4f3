/**
 * The queue's registry and events without any feature: a payload is read through its kind's
 * schema, a kind nobody registered fails loudly, and a failing subscriber neither fails the queue
 * nor silences the subscribers after it.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Store } from "@/db/client";
import { log } from "@/server/observability/log";
import { claimableJobKind, defineJobKind, registerJobKind, registeredJobKind } from "./job-kinds";
import { publishJobEvent, subscribeJobEvents, type JobEvent } from "./job-events";

const store = {} as Store;

describe("job kinds", () => {
  const kind = defineJobKind({ kind: "judge", payload: z.object({ judgeRunId: z.guid() }), claim: { by: "worker" } });
  const runId = "6b1f0c3e-2a4d-4c8e-9f10-1a2b3c4d5e6f";

  it("reads a payload through its schema and refuses one that does not parse, or another kind's job", () => {
    expect(kind.payloadOf({ kind: "judge", payload: { judgeRunId: runId } })).toEqual({ judgeRunId: runId });
    expect(() => kind.payloadOf({ kind: "judge", payload: { judgeRunId: 7 } })).toThrow(/payload is invalid/);
    expect(() => kind.payloadOf({ kind: "reproduce", payload: {} })).toThrow(/not a judge job/);
    expect(() => kind.payloadFor({ judgeRunId: "nope" })).toThrow();
  });

  it("fails loudly for a kind nobody registered, and for a claimer its policy does not name", () => {
    expect(() => registeredJobKind("reproduce")).toThrow(/registerJobPlatform/);
    expect(() => registerJobKind(kind)).toThrow(/handler/);
    const handler = { run: async () => ({ unitsLeft: 0 }), describeLeft: () => "", cancelledReason: "" };
    registerJobKind(kind, { handler });
    expect(claimableJobKind("judge", "worker").handler).toBe(handler);
    expect(() => claimableJobKind("judge", "runner")).toThrow(/claimed by a worker/);
  });
});

describe("job events", () => {
  it("runs every subscriber in order; one that throws is logged and the next still runs", async () => {
    const heard: string[] = [];
    const error = vi.spyOn(log, "error").mockImplementation(() => undefined);
    subscribeJobEvents("first", async (_store, e) => void heard.push(`first ${e.type}`));
    subscribeJobEvents("broken", async () => {
      throw new Error("boom");
    });
    subscribeJobEvents("last", async (_store, e) => void heard.push(`last ${e.type}`));
    const event: JobEvent = { type: "ended", job: { id: "j1", kind: "judge", status: "succeeded" } };
    await expect(publishJobEvent(store, event)).resolves.toBeUndefined();
    expect(heard).toEqual(["first ended", "last ended"]);
    expect(error.mock.calls).toEqual([
      [
        { err: expect.objectContaining({ message: "boom" }), jobId: "j1", event: "ended", subscriber: "broken" },
        "a job event's subscriber failed",
      ],
    ]);
    error.mockRestore();
  });
});
