/**
 * GET /api/metrics (issue 22, item 6): Prometheus' text format read from the database at scrape
 * time, for staff or the scrape token METRICS_TOKEN, and nobody else.
 */
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { insertJudgeRun } from "@/db/queries/judge-runs";
import { addPaperMember } from "@/db/queries/papers";
import { createUser } from "@/db/queries/users";
import { importGrading } from "@/server/gradings/import-grading";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { createApiToken } from "@/server/auth/api-tokens";
import { log } from "@/server/observability/log";
import { DEMO_DIR, gradedDemoText } from "@/test/blind-review";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { GET as getPaper } from "../papers/[paperId]/route";
import { GET as getMetrics } from "./route";

// The session is the only thing mocked: the wrapper, access checks and queries run for real.
const session = vi.hoisted(() => ({ current: null as { userId: string; sessionId: string } | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => session.current,
  getSessionUserId: async () => session.current?.userId ?? null,
}));

const globalForDb = globalThis as unknown as { __rubricStudioDb?: Promise<DbHandle> };
const PAPER = "demo-adaptive-clipping";
const SCRAPE_TOKEN = "scrape-7f3a9c1e-not-a-user-token";
const ODD_MODEL = 'acme "judge"\\v1\nbeta';

describe.each(testDatabaseKinds())("GET /api/metrics on %s", (kind) => {
  let handle: DbHandle;
  const users = { staff: "", grader: "" };
  const sessions = { staff: "", grader: "" };
  let staffApiToken = "";
  let previousToken: string | undefined;
  let previousLevel = "";
  const logged: unknown[][] = [];

  const scrape = async (who: keyof typeof users | null, bearer?: string) => {
    session.current = who ? { userId: users[who], sessionId: sessions[who] } : null;
    const headers: Record<string, string> = bearer === undefined ? {} : { authorization: `Bearer ${bearer}` };
    const res = await getMetrics(new NextRequest("http://localhost/api/metrics", { headers }), {
      params: Promise.resolve({}),
    });
    const text = await res.text();
    // Whatever the answer, it never carries a token back.
    for (const secret of [SCRAPE_TOKEN, staffApiToken]) {
      expect(text).not.toContain(secret);
      expect([...res.headers.values()].join("\n")).not.toContain(secret);
    }
    return { status: res.status, type: res.headers.get("content-type"), text };
  };
  /** The sample lines (not HELP/TYPE) of one family, by their full series name. */
  const series = (text: string, name: string) =>
    text.split("\n").filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
  const value = (text: string, seriesName: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${seriesName} `));
    return line === undefined ? undefined : Number(line.slice(seriesName.length + 1));
  };

  beforeAll(async () => {
    previousToken = process.env.METRICS_TOKEN;
    process.env.METRICS_TOKEN = SCRAPE_TOKEN;
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args));
    }
    // The studio's JSON log lines (server/observability/log.ts writes them to stdout), every level.
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => {
      logged.push([String(chunk)]);
      return true;
    });
    previousLevel = log.level;
    log.level = "trace";
    handle = await openTestDatabase(kind);
    globalForDb.__rubricStudioDb = Promise.resolve(handle);
    for (const who of Object.keys(users) as (keyof typeof users)[]) {
      users[who] = (
        await createUser(handle.db, { email: `${who}@example.org`, name: who, isStaff: who === "staff" })
      ).id;
      const row = await handle.db.execute(
        sql`INSERT INTO user_sessions (user_id, expires_at) VALUES (${users[who]}, now() + interval '1 day') RETURNING id`,
      );
      sessions[who] = String((row.rows[0] as { id: string }).id);
    }
    staffApiToken = (await createApiToken(handle, { userId: users.staff, name: "prometheus" })).token;
    const { files, folderName } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, folderName, userId: users.staff, source: "test" });
    await addPaperMember(handle.db, {
      paperId: PAPER,
      email: "grader@example.org",
      role: "grader",
      addedBy: users.staff,
    });

    // Jobs: the queue now, and timings (wait 10 s and 30 s; runs 60 s and 210 s) of the last hour's.
    const job = (kind: string, status: string, created: string, started: string | null, finished: string | null) =>
      handle.db.execute(sql`
        INSERT INTO jobs (kind, status, paper_id, timeout_s, max_attempts, created_at, started_at, finished_at)
        VALUES (${kind}, ${status}, ${PAPER}, 60, 1, now() - ${created}::interval,
                now() - ${started}::interval, now() - ${finished}::interval)`);
    await job("reproduce", "queued", "5 seconds", null, null);
    await job("reproduce", "queued", "3 seconds", null, null);
    await job("judge", "running", "20 seconds", "15 seconds", null);
    await job("reproduce", "succeeded", "100 seconds", "90 seconds", "30 seconds");
    await job("reproduce", "failed", "300 seconds", "270 seconds", "60 seconds");
    await job("reproduce", "succeeded", "3 hours", "170 minutes", "2 hours"); // before the window
    await job("judge", "cancelled", "50 seconds", null, "40 seconds"); // never claimed: no wait, no run

    // Runners: one online, one not heard from for ten minutes, one online under a revoked token.
    const tokens = await handle.db.execute<{ id: string }>(sql`
      INSERT INTO runner_tokens (name, token_hash, revoked_at) VALUES ('live', 'h1', NULL), ('revoked', 'h2', now()) RETURNING id`);
    const [live, revoked] = tokens.rows.map((r) => r.id);
    await handle.db.execute(sql`
      INSERT INTO runners (token_id, name, capabilities, last_seen_at) VALUES
        (${live}, 'gpu-1', '{}'::jsonb, now()), (${live}, 'gpu-2', '{}'::jsonb, now() - interval '10 minutes'), (${revoked}, 'old', '{}'::jsonb, now())`);

    // Judge usage: two runs on two gradings, one model in both, one with a name to escape.
    for (const run of [1, 2]) {
      const { gradingId } = await importGrading(handle, {
        paperId: PAPER,
        agentName: "agent A",
        runIndex: run,
        variant: "full",
        human: false,
        fileText: gradedDemoText(run),
        userId: null,
      });
      const submission = await handle.db.execute<{ submission_id: string }>(
        sql`SELECT submission_id FROM gradings WHERE id = ${gradingId}`,
      );
      const tokenUsage =
        run === 1
          ? {
              "gpt-4o": { in: 100, out: 20, cached_in: 10, reasoning_out: 0, calls: 2 },
              [ODD_MODEL]: { in: 7, out: 3, cached_in: 0, reasoning_out: 2, calls: 1 },
            }
          : { "gpt-4o": { in: 50, out: 5, cached_in: 0, reasoning_out: 1, calls: 1 } };
      await insertJudgeRun(handle.db, {
        gradingId,
        submissionId: submission.rows[0].submission_id,
        config: {},
        variant: "full",
        tokenUsage,
      });
    }
  });
  afterAll(async () => {
    session.current = null;
    globalForDb.__rubricStudioDb = undefined;
    if (previousToken === undefined) delete process.env.METRICS_TOKEN;
    else process.env.METRICS_TOKEN = previousToken;
    vi.restoreAllMocks();
    log.level = previousLevel;
    await handle?.close();
  });

  it("answers staff and the scrape token; nobody else, and never with a token", async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape("grader")).status).toBe(403);
    expect((await scrape(null, "wrong-scrape-token")).status).toBe(401);
    expect((await scrape(null, `${SCRAPE_TOKEN}x`)).status).toBe(401);
    expect((await scrape(null, "rst_user_not-a-real-token")).status).toBe(401);
    // A grader's session does not become staff by sending a wrong scrape token either.
    expect((await scrape("grader", "wrong-scrape-token")).status).toBe(401);
    for (const [who, bearer] of [
      ["staff", undefined],
      [null, staffApiToken],
      [null, SCRAPE_TOKEN],
    ] as const) {
      const res = await scrape(who, bearer);
      expect(res.status).toBe(200);
      expect(res.type).toBe("text/plain; version=0.0.4; charset=utf-8");
    }
    // Unset, the scrape token is nobody's.
    delete process.env.METRICS_TOKEN;
    try {
      expect((await scrape(null, SCRAPE_TOKEN)).status).toBe(401);
    } finally {
      process.env.METRICS_TOKEN = SCRAPE_TOKEN;
    }
    expect(JSON.stringify(logged)).not.toContain(SCRAPE_TOKEN);
  });

  it("reports the queue depth, the last hour's claim wait and duration, judge usage by model and the runners online", async () => {
    const { text } = await scrape(null, SCRAPE_TOKEN);
    expect(text).toContain("# TYPE rubric_jobs gauge\n");
    expect(series(text, "rubric_jobs")).toHaveLength(12);
    expect(value(text, 'rubric_jobs{kind="reproduce",status="queued"}')).toBe(2);
    expect(value(text, 'rubric_jobs{kind="reproduce",status="succeeded"}')).toBe(2);
    expect(value(text, 'rubric_jobs{kind="reproduce",status="failed"}')).toBe(1);
    expect(value(text, 'rubric_jobs{kind="judge",status="running"}')).toBe(1);
    expect(value(text, 'rubric_jobs{kind="judge",status="cancelled"}')).toBe(1);
    expect(value(text, 'rubric_jobs{kind="judge",status="queued"}')).toBe(0);

    expect(text).toContain("# TYPE rubric_job_claim_wait_seconds summary\n");
    expect(value(text, 'rubric_job_claim_wait_seconds_count{kind="reproduce"}')).toBe(2);
    expect(value(text, 'rubric_job_claim_wait_seconds_sum{kind="reproduce"}')).toBeCloseTo(40, 6);
    expect(value(text, 'rubric_job_claim_wait_seconds{kind="reproduce",quantile="0.5"}')).toBeCloseTo(20, 6);
    expect(value(text, 'rubric_job_claim_wait_seconds{kind="reproduce",quantile="0.9"}')).toBeCloseTo(28, 6);
    expect(value(text, 'rubric_job_duration_seconds_count{kind="reproduce"}')).toBe(2);
    expect(value(text, 'rubric_job_duration_seconds_sum{kind="reproduce"}')).toBeCloseTo(270, 6);
    expect(value(text, 'rubric_job_duration_seconds{kind="reproduce",quantile="0.5"}')).toBeCloseTo(135, 6);
    // No judge job finished after a claim in the window: no quantile (NaN), nothing summed.
    expect(text).toContain('rubric_job_duration_seconds{kind="judge",quantile="0.99"} NaN\n');
    expect(value(text, 'rubric_job_duration_seconds_count{kind="judge"}')).toBe(0);

    expect(text).toContain("# TYPE rubric_judge_calls_total counter\n");
    expect(value(text, 'rubric_judge_calls_total{model="gpt-4o"}')).toBe(3);
    expect(value(text, 'rubric_judge_tokens_total{model="gpt-4o",type="input"}')).toBe(150);
    expect(value(text, 'rubric_judge_tokens_total{model="gpt-4o",type="cached_input"}')).toBe(10);
    expect(value(text, 'rubric_judge_tokens_total{model="gpt-4o",type="output"}')).toBe(25);
    expect(value(text, 'rubric_judge_tokens_total{model="gpt-4o",type="reasoning"}')).toBe(1);
    // A label value escapes backslash, double quote and line feed; the line stays one line.
    expect(value(text, 'rubric_judge_calls_total{model="acme \\"judge\\"\\\\v1\\nbeta"}')).toBe(1);
    expect(text).not.toContain(ODD_MODEL);

    expect(value(text, "rubric_runners_online")).toBe(1);
    expect(text.endsWith("\n")).toBe(true);
  });

  it("counts each API call in the latency histogram by route pattern, method and status, and logs it with its request id", async () => {
    const seriesOf = (status: number) => `route="/api/papers/[paperId]",method="GET",status="${status}"`;
    // The histogram is this process's (both database kinds add to it): compare before and after.
    const before = (await scrape(null, SCRAPE_TOKEN)).text;
    const count = (text: string, status: number) =>
      value(text, `http_request_duration_seconds_count{${seriesOf(status)}}`) ?? 0;

    const call = async (who: keyof typeof users | null, requestId?: string) => {
      session.current = who ? { userId: users[who], sessionId: sessions[who] } : null;
      return getPaper(
        new NextRequest(`http://localhost/api/papers/${PAPER}`, {
          headers: requestId ? { "x-request-id": requestId } : {},
        }),
        { params: Promise.resolve({ paperId: PAPER }) },
      );
    };
    const answered = await call("grader", "proxy-7f3a9c1e-0001");
    expect(answered.status).toBe(200);
    expect(answered.headers.get("x-request-id")).toBe("proxy-7f3a9c1e-0001");
    expect((await call(null, "not sane: spaces")).status).toBe(401);

    const { text } = await scrape(null, SCRAPE_TOKEN);
    expect(text).toContain("# TYPE http_request_duration_seconds histogram\n");
    expect(count(text, 200) - count(before, 200)).toBe(1);
    expect(count(text, 401) - count(before, 401)).toBe(1);
    expect(value(text, `http_request_duration_seconds_bucket{${seriesOf(200)},le="+Inf"}`)).toBe(count(text, 200));
    // The paper's id never becomes a label.
    expect(text).not.toContain(`route="/api/papers/${PAPER}"`);

    const lines = logged
      .flat()
      .filter((x): x is string => typeof x === "string")
      .flatMap((chunk) => chunk.split("\n"))
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = lines.find((l) => l.requestId === "proxy-7f3a9c1e-0001");
    expect(line).toMatchObject({
      service: "studio",
      level: "info",
      msg: "request",
      method: "GET",
      route: "/api/papers/[paperId]",
      status: 200,
    });
    expect(typeof line!.durationMs).toBe("number");
    // An id that is not sane is replaced, not logged.
    expect(lines.some((l) => l.requestId === "not sane: spaces")).toBe(false);
    expect(lines.find((l) => l.route === "/api/papers/[paperId]" && l.status === 401)?.requestId).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});
