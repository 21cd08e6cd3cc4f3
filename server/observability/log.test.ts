import { describe, expect, it } from "vitest";
import { REDACTED } from "@/lib/observability/log-options";
import { createStudioLogger } from "./log";

/** A logger writing into memory, and its lines parsed. */
function capture() {
  const lines: string[] = [];
  const logger = createStudioLogger({ write: (line: string) => void lines.push(line) }, "info");
  return { logger, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), lines };
}

describe("the studio's logger", () => {
  it("writes one JSON object per line: level by name, the service, the message and a child's bindings", () => {
    const { logger, records, lines } = capture();
    const jobLog = logger.child({ jobId: "job-1", leaseId: "lease-1" }).child({ runnerId: "runner-1" });
    jobLog.info({ attempt: 2 }, "claimed");
    logger.child({ requestId: "req-1" }).warn("slow");
    logger.debug("below the level");
    expect(lines.every((line) => line.endsWith("\n") && !line.slice(0, -1).includes("\n"))).toBe(true);
    expect(records()).toEqual([
      expect.objectContaining({
        level: "info",
        service: "studio",
        jobId: "job-1",
        leaseId: "lease-1",
        runnerId: "runner-1",
        attempt: 2,
        msg: "claimed",
        time: expect.any(Number),
      }),
      expect.objectContaining({ level: "warn", requestId: "req-1", msg: "slow" }),
    ]);
  });

  it("redacts headers, cookies, tokens, passwords, secrets and bodies, at the top level and one object down", () => {
    const { logger, records, lines } = capture();
    const token = "rst_job_5e1c9f0d-secret";
    logger.info(
      {
        authorization: `Bearer ${token}`,
        cookie: "authjs.session-token=abc",
        token,
        req: { headers: { authorization: `Bearer ${token}` }, body: '{"password":"hunter2"}', method: "POST" },
        user: { password: "hunter2", email: "a@example.org" },
        runner: { runnerToken: token, secret: "s3cr3t", apiKey: "sk-live" },
      },
      "a careless call",
    );
    const [record] = records();
    expect(record).toMatchObject({
      authorization: REDACTED,
      cookie: REDACTED,
      token: REDACTED,
      req: { headers: REDACTED, body: REDACTED, method: "POST" },
      user: { password: REDACTED, email: "a@example.org" },
      runner: { runnerToken: REDACTED, secret: REDACTED, apiKey: REDACTED },
    });
    const text = lines.join("");
    for (const secret of [token, "hunter2", "abc", "s3cr3t", "sk-live"]) expect(text).not.toContain(secret);
  });

  it("logs an error with its message and stack", () => {
    const { logger, records } = capture();
    logger.error({ err: new Error("the database went away") }, "requeueing expired jobs failed");
    expect(records()[0]).toMatchObject({
      level: "error",
      msg: "requeueing expired jobs failed",
      err: { type: "Error", message: "the database went away", stack: expect.stringContaining("Error:") },
    });
  });
});
