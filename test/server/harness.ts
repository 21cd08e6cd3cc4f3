/**
 * What the server tests (`test/server/*.server.test.ts`) and the co-editing benchmark
 * (`bench/coedit.ts`) share: a database prepared with users and the demo paper, the built studio
 * started with `next start` on loopback (ports from 3400, a hundred per vitest worker), sign-in through the real credentials
 * provider, and a Server-Sent Events client of the rubric's live feed (Node has no EventSource).
 *
 * Servers run from the build in NEXT_DIST_DIR (default `.next`); every one runs in its own process
 * group and is killed as a whole.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { randomBytes } from "node:crypto";
import { openDatabase, type DbHandle } from "@/db/client";
import { addPaperMember } from "@/db/queries/papers";
import { getUserByEmail } from "@/db/queries/users";
import { createAccount } from "@/server/users/create-account";
import { seedDemo } from "@/server/seed/seed";
import type { RubricOperation } from "@/lib/rubric/operations";
import { createTestPostgresDatabase } from "@/test/databases";
import { SHORT_LIVED_NODE_FLAGS } from "@/test/node-flags";
import { pollUntil } from "@/test/poll";
import { inject } from "vitest";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CODE_CACHE_PRELOAD = path.join(ROOT, "test", "node-code-cache.mjs");

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the server suite's studios keep their code cache for this run (test/node-code-cache.mjs). */
    codeCacheDir: string;
  }
}
export const DEMO_PAPER_ID = "demo-adaptive-clipping";
export const STAFF = { email: "staff@demo.rubric.studio", password: "staff-demo-pass" };
export const AUTHOR = { email: "author@demo.rubric.studio", password: "author-demo-pass" };

export const distDir = () => process.env.NEXT_DIST_DIR || ".next";

/** Throws unless the studio has been built (`npm run build`, or NEXT_DIST_DIR=… npm run build). */
export function assertBuilt(): void {
  const buildId = path.join(ROOT, distDir(), "BUILD_ID");
  if (!fs.existsSync(buildId)) {
    throw new Error(`No build at ${path.dirname(buildId)}: run \`npm run build\` first (NEXT_DIST_DIR=${distDir()})`);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined/false; bounded by the test's timeout alone (see pollUntil). */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  every = 20,
): Promise<T> {
  return (await pollUntil(what, check, (value) => value !== undefined && value !== false, every)) as T;
}

// ── Ports ────────────────────────────────────────────────────────────────────

// Each vitest worker of the server suite takes ports from its own hundred (3400–3499, 3500–3599, …):
// a port is only checked free, so two workers picking from one range could both take it before either listens.
const POOL = Math.max(0, Number(process.env.VITEST_POOL_ID ?? 1) - 1);
const PORT_MIN = 3400 + 100 * POOL;
const PORT_MAX = PORT_MIN + 99;
const handedOut = new Set<number>();

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port of this worker's hundred (or of `min`–`max`) that nothing listens on (and that this process has not handed out yet). */
export async function freePort(min = PORT_MIN, max = PORT_MAX): Promise<number> {
  const span = max - min + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = min + ((start + i) % span);
    if (handedOut.has(port)) continue;
    if (await portIsFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`No free port in ${min}–${max}`);
}

// ── Databases ────────────────────────────────────────────────────────────────

export interface TestUser {
  email: string;
  password: string;
  staff: boolean;
}

export interface PreparedDatabase {
  kind: "pglite" | "postgres";
  /** The environment a studio process needs for it (DATA_DIR or DATABASE_URL, AUTH_SECRET). */
  env: Record<string, string>;
  /** The extra users, in order; the demo users exist too. */
  users: TestUser[];
  drop(): Promise<void>;
}

/**
 * A fresh database holding the demo seed (users of each role, the demo paper) and `extraUsers`
 * more users (`coedit-<i>@test.rubric.studio`): even ones staff, odd ones authors of the demo
 * paper. Prepared in this process before any studio opens it (PGlite has one owner at a time).
 */
export async function prepareDatabase(
  kind: "pglite" | "postgres",
  extraUsers: number,
  label = "coedit",
  /** More preparation on the open database, after the seed and the extra users. */
  setup?: (db: DbHandle["db"], handle: DbHandle) => Promise<void>,
): Promise<PreparedDatabase> {
  const users: TestUser[] = Array.from({ length: extraUsers }, (_, i) => ({
    email: `${label}-${i}@test.rubric.studio`,
    password: `${label}-pass-${i}-${randomBytes(4).toString("hex")}`,
    staff: i % 2 === 0,
  }));
  const authSecret = randomBytes(32).toString("base64url");
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let handleOpts: { dataDir?: string; databaseUrl?: string };
  if (kind === "pglite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rubric-studio-${label}-`));
    env = { DATA_DIR: dataDir, DATABASE_URL: "", AUTH_SECRET: authSecret };
    drop = async () => fs.rmSync(dataDir, { recursive: true, force: true });
    handleOpts = { dataDir };
  } else {
    const server = await createTestPostgresDatabase();
    env = { DATABASE_URL: server.url, AUTH_SECRET: authSecret };
    drop = server.drop;
    handleOpts = { databaseUrl: server.url };
  }
  try {
    const handle = await openDatabase(handleOpts);
    try {
      await seedDemo(handle.db);
      const staff = await getUserByEmail(handle.db, STAFF.email);
      if (!staff) throw new Error("the demo seed made no staff user");
      for (const u of users) {
        await createAccount(handle.db, {
          email: u.email,
          name: u.email.split("@")[0],
          password: u.password,
          isStaff: u.staff,
        });
        if (!u.staff)
          await addPaperMember(handle.db, {
            paperId: DEMO_PAPER_ID,
            email: u.email,
            role: "author",
            addedBy: staff.id,
          });
      }
      await setup?.(handle.db, handle);
    } finally {
      await handle.close();
    }
  } catch (err) {
    await drop();
    throw err;
  }
  return { kind, env, users, drop };
}

// ── Studio processes ─────────────────────────────────────────────────────────

export interface Studio {
  url: string;
  port: number;
  pid: number;
  /** The last lines the server printed (for failure messages). */
  output(): string;
  /** Resolves when the process has exited: its exit code, or the signal that ended it. */
  exited: Promise<number | string>;
  stop(): Promise<void>;
}

// Process groups of the studios still running: killed if this process exits without stopping them.
const running = new Set<number>();
process.once("exit", () => {
  for (const pid of running) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

/** SIGKILL to the studio's process group (no shutdown of any kind), resolving once the process is gone. */
export async function killStudio(studio: Studio): Promise<void> {
  process.kill(-studio.pid, "SIGKILL");
  await waitFor("the studio gone", () => {
    try {
      process.kill(studio.pid, 0);
      return undefined;
    } catch {
      return true;
    }
  });
}

/** Starts the built studio (`next start`) on a free port and waits until it answers. */
export async function startStudio(
  env: Record<string, string>,
  opts: { port?: number; timeoutMs?: number } = {},
): Promise<Studio> {
  assertBuilt();
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const nextBin = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
  // A test's studio lives for one test file: V8's flags for short-lived processes (test/node-flags.ts)
  // took a fifth off the CPU of the server suite's PGlite studios, and the run's code cache
  // (test/node-code-cache.mjs) a third of what a studio takes to answer its first request. The
  // benchmarks (no VITEST) measure the studio as it runs in production, with neither.
  const testOnly = process.env.VITEST
    ? {
        args: [...SHORT_LIVED_NODE_FLAGS, "--import", pathToFileURL(CODE_CACHE_PRELOAD).href],
        env: { RUBRIC_STUDIO_CODE_CACHE_DIR: inject("codeCacheDir") },
      }
    : { args: [], env: {} };
  const args = [...testOnly.args, nextBin, "start", "-H", "127.0.0.1", "-p", String(port)];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    // No embedded runner unless a test asks for one (EMBEDDED_RUNNER=1): runner tests start their own.
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: distDir(),
      PAPERBENCH_DATA_DIR: process.env.PAPERBENCH_DATA_DIR ?? path.join(ROOT, "..", "shared", "paperbench"),
      EMBEDDED_RUNNER: "0",
      PORT: String(port),
      ...testOnly.env,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, killed as a whole
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let exited: number | string | null = null;
  if (child.pid !== undefined) running.add(child.pid);
  const exit = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = code ?? signal ?? "exit";
      if (child.pid !== undefined) running.delete(child.pid);
      resolve(exited);
    }),
  );
  const stop = async () => {
    if (exited !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    const killed = await Promise.race([exit.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
      await exit;
    }
  };
  try {
    const deadline = performance.now() + (opts.timeoutMs ?? 90_000);
    for (;;) {
      if (exited !== null) throw new Error(`the studio exited (${exited}) before answering`);
      if (performance.now() > deadline) throw new Error("the studio did not answer in time");
      try {
        const res = await fetch(`${url}/api/auth/csrf`, { signal: AbortSignal.timeout(5_000) });
        if (res.ok) break;
      } catch {
        // Not listening yet.
      }
      await sleep(100);
    }
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message} on ${url}:\n${log}`);
  }
  return { url, port, pid: child.pid!, output: () => log, exited: exit, stop };
}

// ── Sessions ─────────────────────────────────────────────────────────────────

function absorbCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}

/**
 * Signs in through the credentials provider as a browser does (CSRF token, then the form post)
 * and returns the Cookie header of the session.
 */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  absorbCookies(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
    },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/` }),
  });
  await res.arrayBuffer();
  absorbCookies(jar, res);
  const session = [...jar].filter(([k]) => k.includes("session-token"));
  if (session.length === 0)
    throw new Error(`sign-in of ${email} failed (${res.status} ${res.headers.get("location") ?? ""})`);
  return session.map(([k, v]) => `${k}=${v}`).join("; ");
}

// ── API ──────────────────────────────────────────────────────────────────────

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/** One request with the session cookie; the answer's status and JSON body (null when not JSON). */
export async function api<T = unknown>(
  baseUrl: string,
  cookie: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed as T };
}

export interface OperationAnswer {
  revision?: number;
  error?: { code: string; message: string; details?: { reason?: string }[] };
}

export function postOperation(
  baseUrl: string,
  cookie: string,
  paperId: string,
  request: { clientOpId: string; baseRevision: number; op: RubricOperation },
): Promise<ApiAnswer<OperationAnswer>> {
  return api<OperationAnswer>(
    baseUrl,
    cookie,
    "POST",
    `/api/papers/${encodeURIComponent(paperId)}/rubric/operations`,
    request,
  );
}

// ── Live feed ────────────────────────────────────────────────────────────────

/** One `op` event of the live feed (server/live/rubric-feed.ts FeedOperation). */
export interface FeedEvent {
  revision: number;
  kind: string;
  clientOpId: string | null;
  userId: string | null;
  userName: string | null;
  op: RubricOperation | null;
}

export interface LiveFeedOptions {
  baseUrl: string;
  cookie: string;
  paperId: string;
  onOp: (event: FeedEvent) => void;
  /** `problem` events and unexpected answers (not a close asked for). */
  onProblem?: (message: string) => void;
  /** Reconnect by itself when the server ends the stream, as EventSource does (default true). */
  reconnect?: boolean;
}

/**
 * A client of `GET /api/papers/<id>/rubric/events`: parses the event stream, hands each `op`
 * event to `onOp` and ignores the other event types (presence, review, comments…). Resumes like a
 * browser's EventSource: with Last-Event-ID (the last revision seen), or `?since=`.
 */
export class LiveFeed {
  /** The revision of the last `op` event received (-1 before any). */
  lastEventId = -1;
  /** Streams opened so far (reconnects included). */
  connects = 0;
  private abort: AbortController | null = null;
  private readyWaiters: (() => void)[] = [];
  private isReady = false;
  private running: Promise<void> | null = null;

  constructor(private readonly opts: LiveFeedOptions) {}

  get connected(): boolean {
    return this.abort !== null;
  }

  get ready(): boolean {
    return this.isReady;
  }

  /**
   * Opens the stream after revision `since` (`resume: "header"` sends it as Last-Event-ID, as a
   * reconnecting EventSource does). Resolves when the server has said `ready`.
   */
  async connect(since: number, resume: "query" | "header" = "query"): Promise<void> {
    if (this.abort) throw new Error("already connected");
    const abort = new AbortController();
    this.abort = abort;
    this.isReady = false;
    this.connects++;
    const ready = new Promise<void>((resolve) => this.readyWaiters.push(resolve));
    this.running = this.run(since, resume, abort).finally(() => {
      if (this.abort === abort) this.abort = null;
    });
    await Promise.race([
      ready,
      this.running.then(() => Promise.reject(new Error("the live feed closed before it was ready"))),
    ]);
  }

  /** Closes the stream (a dropped connection, or the end). */
  async close(): Promise<void> {
    const abort = this.abort;
    this.abort = null;
    this.isReady = false;
    abort?.abort();
    await this.running?.catch(() => {});
  }

  private async run(since: number, resume: "query" | "header", abort: AbortController): Promise<void> {
    const { baseUrl, cookie, paperId } = this.opts;
    let from = since;
    let mode = resume;
    for (;;) {
      const base = `${baseUrl}/api/papers/${encodeURIComponent(paperId)}/rubric/events`;
      const url = mode === "query" ? `${base}?since=${from}` : base;
      const headers: Record<string, string> = { cookie, accept: "text/event-stream" };
      if (mode === "header") headers["last-event-id"] = String(from);
      try {
        const res = await fetch(url, { headers, signal: abort.signal });
        if (res.status !== 200 || !res.body) {
          this.opts.onProblem?.(`the live feed answered ${res.status}: ${await res.text().catch(() => "")}`);
          return;
        }
        await this.read(res.body, abort.signal);
      } catch (err) {
        if (abort.signal.aborted) return;
        this.opts.onProblem?.(`the live feed failed: ${(err as Error).message}`);
      }
      if (abort.signal.aborted || this.opts.reconnect === false) return;
      // The server ended the stream: resume after the last event, as EventSource does.
      await sleep(50);
      if (abort.signal.aborted) return;
      from = Math.max(from, this.lastEventId);
      mode = "header";
    }
  }

  private async read(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    let event = "message";
    let data: string[] = [];
    let id: string | null = null;
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || signal.aborted) return;
        buffer += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + (buffer.startsWith("\r\n", nl) ? 2 : 1));
          if (line === "") {
            if (data.length > 0) this.dispatch(event, data.join("\n"), id);
            event = "message";
            data = [];
            id = null;
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
          else if (field === "id") id = value;
        }
      }
    } finally {
      reader.releaseLock();
    }
  }

  private dispatch(event: string, data: string, id: string | null): void {
    if (event === "ready") {
      this.isReady = true;
      for (const resolve of this.readyWaiters.splice(0)) resolve();
      return;
    }
    if (event === "problem") {
      this.opts.onProblem?.(`problem event: ${data}`);
      return;
    }
    if (event !== "op") return; // presence, review, comments…: not this client's business
    const parsed = JSON.parse(data) as FeedEvent;
    if (id !== null && Number(id) !== parsed.revision)
      this.opts.onProblem?.(`event id ${id} is not its revision ${parsed.revision}`);
    this.lastEventId = Math.max(this.lastEventId, parsed.revision);
    this.opts.onOp(parsed);
  }
}

// ── Statistics ───────────────────────────────────────────────────────────────

/** Nearest-rank percentile. */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
