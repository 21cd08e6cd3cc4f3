import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { addPaperMember, createPaper } from "@/db/queries/papers";
import { createUser } from "@/db/queries/users";
import { DEFAULT_RUN_SETTINGS } from "@/lib/jobs/paper-settings";
import { readReproduceSecrets } from "@/server/papers/paper-secrets";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";

// The session is the cookie's business (next-auth); here each request says who sends it.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("@/server/auth/session", () => ({
  getRequestSession: async () => (await import("@/test/mock-session")).liveSessionOf(session.userId),
}));

const settingsRoute = await import("./route");
const secretRoute = await import("../secrets/[name]/route");

type Params = { paperId: string; name?: string };
type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;
type Answer = {
  status: number;
  text: string;
  body: { settings?: Record<string, unknown>; error?: { code: string; message: string; details: { path: string }[] } };
};

const SECRET = "hf_route-secret-value-9f2c41";

describe.each(testDatabaseKinds())("run-settings and secret routes on %s", (kind) => {
  let handle: DbHandle;
  const paperId = "routes-settings";
  const users = { staff: "", author: "", grader: "" };
  const savedAuthSecret = process.env.AUTH_SECRET;

  beforeAll(async () => {
    process.env.AUTH_SECRET = "routes-test-auth-secret-1d9e";
    handle = await openTestDatabase(kind);
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = Promise.resolve(handle);
    users.staff = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    await createPaper(
      handle.db,
      { id: paperId, title: "Settings", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] },
      users.staff,
    );
    for (const role of ["author", "grader"] as const) {
      users[role] = (await createUser(handle.db, { email: `${role}@example.org` })).id;
      await addPaperMember(handle.db, { paperId, email: `${role}@example.org`, role, addedBy: users.staff });
    }
  });
  afterAll(async () => {
    (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb = undefined;
    await handle?.close();
    if (savedAuthSecret === undefined) delete process.env.AUTH_SECRET;
    else process.env.AUTH_SECRET = savedAuthSecret;
  });

  async function call<P extends Params>(
    handler: Handler<P>,
    as: keyof typeof users,
    method: string,
    params: P,
    body?: string,
  ): Promise<Answer> {
    session.userId = users[as];
    const url = `http://127.0.0.1/api/papers/${paperId}/${params.name ? `secrets/${params.name}` : "run-settings"}`;
    const init = body === undefined ? { method } : { method, body, headers: { "content-type": "application/json" } };
    const res = await handler(new NextRequest(url, init), { params: Promise.resolve(params) });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  }
  const getSettings = (as: keyof typeof users) => call(settingsRoute.GET, as, "GET", { paperId });
  const putSettings = (as: keyof typeof users, body: unknown) =>
    call(settingsRoute.PUT, as, "PUT", { paperId }, JSON.stringify(body));
  const putSecret = (as: keyof typeof users, name: string, body: string) =>
    call(secretRoute.PUT, as, "PUT", { paperId, name }, body);

  it("shows members the defaults, and lets staff alone change them", async () => {
    expect((await getSettings("grader")).body.settings).toEqual({ ...DEFAULT_RUN_SETTINGS, secretNames: [] });
    const wanted = {
      timeoutS: 7200,
      gpus: 2,
      network: true,
      salvageRetryBelowS: 300,
      diskLimitMiB: 10240,
      memoryLimitMiB: 8192,
      processLimit: 1024,
    };
    expect((await putSettings("author", wanted)).status).toBe(403);
    const saved = await putSettings("staff", wanted);
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({ ...wanted, secretNames: [] });
    expect((await getSettings("author")).body.settings).toEqual({ ...wanted, secretNames: [] });
  });

  it("refuses bad settings with a 400 naming the field", async () => {
    const answer = await putSettings("staff", { timeoutS: 3600, gpus: 65, network: false, salvageRetryBelowS: 0 });
    expect(answer.status).toBe(400);
    expect(answer.body.error!.details.map((d) => d.path)).toEqual(["gpus"]);
    expect(answer.body.error!.message).toBe("GPUs must be at most 64");
    const missing = await putSettings("staff", { gpus: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.error!.details.map((d) => d.path).sort()).toEqual([
      "network",
      "salvageRetryBelowS",
      "timeoutS",
    ]);
  });

  it("sets a secret for staff only, answers its name and never its value", async () => {
    expect((await putSecret("author", "HF_TOKEN", JSON.stringify({ value: SECRET }))).status).toBe(403);
    const set = await putSecret("staff", "HF_TOKEN", JSON.stringify({ value: SECRET }));
    expect(set.status).toBe(200);
    expect(set.text).not.toContain(SECRET);
    const seen = await getSettings("grader");
    expect(seen.body.settings!.secretNames).toEqual(["HF_TOKEN"]);
    expect(seen.text).not.toContain(SECRET);
    expect(await readReproduceSecrets(handle.db, paperId)).toEqual({ HF_TOKEN: SECRET });
  });

  it("refuses bad secrets with a 400 naming the field and never quotes the value", async () => {
    const cases: [name: string, body: string, field: string][] = [
      ["hf_token", JSON.stringify({ value: SECRET }), "name"],
      ["EMPTY", JSON.stringify({ value: "" }), "value"],
      ["NOT_TEXT", JSON.stringify({ value: 42 }), "value"],
      ["TOO_LONG", JSON.stringify({ value: SECRET.repeat(1000) }), "value"],
      ["NUL", JSON.stringify({ value: `${SECRET}\u0000` }), "value"],
      // Bad JSON: a parser's message would quote the text around the fault, here the secret.
      ["BAD_JSON", `{"value": "${SECRET}`, "value"],
      ["BAD_JSON", `{"value": ${SECRET}}`, "value"],
    ];
    for (const [name, body, field] of cases) {
      const answer = await putSecret("staff", name, body);
      expect(answer.status, `${name} ${body.slice(0, 20)}`).toBe(400);
      expect(
        answer.body.error!.details.map((d) => d.path),
        name,
      ).toEqual([field]);
      // Not even a part of it (a JSON parser quotes ten characters around its fault).
      expect(answer.text, name).not.toContain(SECRET.slice(0, 8));
    }
    expect((await getSettings("staff")).body.settings!.secretNames).toEqual(["HF_TOKEN"]);
  });

  it("refuses a secret named for how programs load or run (PATH, LD_PRELOAD…) with a 400 naming the rule, storing nothing", async () => {
    for (const name of [
      "PATH",
      "LD_PRELOAD",
      "BASH_ENV",
      "PYTHONSTARTUP",
      "NODE_OPTIONS",
      "GIT_SSH_COMMAND",
      "CUDA_VISIBLE_DEVICES",
    ]) {
      const answer = await putSecret("staff", name, JSON.stringify({ value: SECRET }));
      expect(answer.status, name).toBe(400);
      expect(
        answer.body.error!.details.map((d) => d.path),
        name,
      ).toEqual(["name"]);
      expect(answer.body.error!.message, name).toMatch(
        new RegExp(`^Name is reserved: ${name} cannot be a secret because `),
      );
      expect(answer.text, name).not.toContain(SECRET.slice(0, 8));
    }
    expect((await getSettings("staff")).body.settings!.secretNames).toEqual(["HF_TOKEN"]);
  });

  it("deletes a secret for staff only; an unknown name is a 404", async () => {
    expect((await call(secretRoute.DELETE, "author", "DELETE", { paperId, name: "HF_TOKEN" })).status).toBe(403);
    expect((await call(secretRoute.DELETE, "staff", "DELETE", { paperId, name: "HF_TOKEN" })).status).toBe(200);
    expect((await call(secretRoute.DELETE, "staff", "DELETE", { paperId, name: "HF_TOKEN" })).status).toBe(404);
    expect((await getSettings("staff")).body.settings!.secretNames).toEqual([]);
  });
});
