import { describe, expect, it } from "vitest";
import { createRunnerLogger, loggedEvents } from "./log";

describe("the runner's logger", () => {
  it("writes a runner event as a JSON line with the runner's, job's and lease's ids, and redacts its token", () => {
    const lines: string[] = [];
    const logger = createRunnerLogger(
      { runnerName: "gpu-1" },
      { write: (line: string) => void lines.push(line) },
      "info",
    );
    const event = loggedEvents(logger);
    event("claimed job j-1 (attempt 1)", { runnerId: "r-1", jobId: "j-1", leaseId: "l-1" });
    event("stopped");
    logger.warn({ runnerToken: "rst_runner_abc", jobToken: "rst_job_def" }, "careless");
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({
      level: "info",
      service: "runner",
      runnerName: "gpu-1",
      runnerId: "r-1",
      jobId: "j-1",
      leaseId: "l-1",
      msg: "claimed job j-1 (attempt 1)",
    });
    expect(records[1]).toMatchObject({ service: "runner", runnerName: "gpu-1", msg: "stopped" });
    expect(records[2]).toMatchObject({ runnerToken: "[redacted]", jobToken: "[redacted]" });
    expect(lines.join("")).not.toMatch(/rst_runner_abc|rst_job_def/);
  });
});
