import { describe, expect, it } from "vitest";
import { heartbeatHealth } from "./heartbeat-health";

describe("heartbeatHealth", () => {
  it("says how many failed in a row and the time since the last success, counted from the start until one succeeds", () => {
    let t = 1_000_000;
    const health = heartbeatHealth("job-1", 60, () => t);
    t += 15_000;
    expect(health.failed(new Error("ECONNREFUSED"))).toBe(
      "job job-1: heartbeat failed (1 in a row, 15.0 s since the last success, lease 60 s): ECONNREFUSED",
    );
    t += 15_500;
    expect(health.failed("timeout")).toBe(
      "job job-1: heartbeat failed (2 in a row, 30.5 s since the last success, lease 60 s): timeout",
    );
    health.succeeded();
    t += 15_000;
    expect(health.failed(new Error("503"))).toBe(
      "job job-1: heartbeat failed (1 in a row, 15.0 s since the last success, lease 60 s): 503",
    );
  });

  it("gives the same figures as fields for a structured log", () => {
    let t = 0;
    const health = heartbeatHealth("job-2", 30, () => t);
    t += 12_340;
    expect(health.failure(new Error("ECONNRESET"))).toEqual({
      message: "job job-2: heartbeat failed (1 in a row, 12.3 s since the last success, lease 30 s): ECONNRESET",
      jobId: "job-2",
      failuresInARow: 1,
      sinceLastSuccessS: 12.3,
      leaseS: 30,
      error: "ECONNRESET",
    });
  });
});
