/**
 * A simulated co-editor for the server tests: the browser editor's own model of a live rubric
 * (`RubricStore`: optimistic queue, rollback on refusal, reload on gaps, imports and batches)
 * talking to a real studio over HTTP with a signed-in session, following the live feed with
 * `LiveFeed`, plus "raw" requests sent beside the store (operations the editor would refuse
 * locally, retries with the same client op id, several in flight at once).
 *
 * Every operation request is recorded with its answer, so that a test can check that each one was
 * either applied (a revision) or refused with a reason — none lost, none a server error.
 */
import { RubricStore } from "@/components/rubric-editor/rubric-store";
import { ApiClientError, fetchJson } from "@/components/api/client";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { LiveFeed, postOperation, sleep, type FeedEvent } from "./harness";

export interface SentOperation {
  client: number;
  via: "store" | "raw";
  clientOpId: string;
  op: RubricOperation;
  /** Which attempt of this client op id (1 = the first). */
  attempt: number;
  /** When it was sent and answered (performance.now()). */
  sentAt: number;
  answeredAt?: number;
  /** null while no answer has come. */
  status: number | null;
  revision?: number;
  code?: string;
  reason?: string;
  message?: string;
}

/** Every operation request of a run, in the order they were sent. */
export class OperationLedger {
  readonly sent: SentOperation[] = [];

  start(client: number, via: SentOperation["via"], clientOpId: string, op: RubricOperation): SentOperation {
    const attempt = this.sent.filter((s) => s.clientOpId === clientOpId).length + 1;
    const entry: SentOperation = { client, via, clientOpId, op, attempt, sentAt: performance.now(), status: null };
    this.sent.push(entry);
    return entry;
  }
}

export interface CoEditorOptions {
  index: number;
  baseUrl: string;
  cookie: string;
  paperId: string;
  ledger: OperationLedger;
  /** Feed problems (problem events, unexpected answers): a test fails on any. */
  problems: string[];
}

export class CoEditor {
  readonly store: RubricStore;
  readonly feed: LiveFeed;
  /** Messages of the changes refused, by the server or by the store's local check. */
  readonly refusals: string[] = [];
  /** Raw requests still waiting for their answer. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private reconnecting: Promise<void> | null = null;
  private lastRaw: { clientOpId: string; baseRevision: number; op: RubricOperation } | null = null;
  private opCounter = 0;

  constructor(readonly opts: CoEditorOptions) {
    const { baseUrl, cookie, ledger, index } = opts;
    // The store's fetch: the same fetchJson the browser uses, against this server with this session.
    const fetchImpl = (async <T>(url: string, init?: RequestInit): Promise<T> => {
      const headers = new Headers(init?.headers);
      headers.set("cookie", cookie);
      const isOperation = init?.method === "POST" && url.endsWith("/rubric/operations");
      const request = isOperation
        ? (JSON.parse(String(init!.body)) as { clientOpId: string; op: RubricOperation })
        : null;
      const entry = request ? ledger.start(index, "store", request.clientOpId, request.op) : null;
      try {
        const body = await fetchJson<T>(`${baseUrl}${url}`, { ...init, headers });
        if (entry) {
          entry.answeredAt = performance.now();
          entry.status = 200;
          entry.revision = (body as { revision?: number }).revision;
        }
        return body;
      } catch (err) {
        if (entry) {
          entry.answeredAt = performance.now();
          const e = err as ApiClientError;
          entry.status = err instanceof ApiClientError ? e.status : -1;
          entry.code = err instanceof ApiClientError ? e.code : "thrown";
          entry.message = (err as Error).message;
          entry.reason =
            err instanceof ApiClientError ? (e.details[0] as { reason?: string } | undefined)?.reason : undefined;
        }
        throw err;
      }
    }) as typeof fetchJson;
    this.store = new RubricStore({
      paperId: opts.paperId,
      canEdit: true,
      fetchImpl,
      onRefused: (message) => this.refusals.push(message),
    });
    this.feed = new LiveFeed({
      baseUrl,
      cookie,
      paperId: opts.paperId,
      onOp: (event: FeedEvent) => this.store.receiveRemote(event),
      onProblem: (message) => opts.problems.push(`client ${index}: ${message}`),
    });
  }

  /** Loads the rubric as the editor does, then follows it from the revision loaded. */
  async open(): Promise<void> {
    await this.store.load();
    const snap = this.store.getSnapshot();
    if (snap.status !== "ready")
      throw new Error(`client ${this.opts.index} could not load the rubric: ${snap.loadError}`);
    await this.feed.connect(snap.revision);
  }

  get rows(): readonly NodeRow[] {
    return this.store.rows;
  }

  newOpId(): string {
    return `c${this.opts.index}-${++this.opCounter}-${crypto.randomUUID()}`;
  }

  /** An operation sent beside the store (not checked locally), answered later; recorded in the ledger. */
  sendRaw(op: RubricOperation, clientOpId = this.newOpId()): void {
    const request = { clientOpId, baseRevision: this.store.getSnapshot().revision, op };
    this.lastRaw = request;
    this.post(request);
  }

  /** Sends the last raw request again, with the same client op id (a retry after a lost answer). */
  retryLastRaw(): void {
    if (this.lastRaw) this.post(this.lastRaw);
  }

  private post(request: { clientOpId: string; baseRevision: number; op: RubricOperation }): void {
    const entry = this.opts.ledger.start(this.opts.index, "raw", request.clientOpId, request.op);
    const done = postOperation(this.opts.baseUrl, this.opts.cookie, this.opts.paperId, request)
      .then((answer) => {
        entry.answeredAt = performance.now();
        entry.status = answer.status;
        entry.revision = answer.body?.revision;
        entry.code = answer.body?.error?.code;
        entry.message = answer.body?.error?.message;
        entry.reason = answer.body?.error?.details?.[0]?.reason;
      })
      .catch((err: Error) => {
        entry.answeredAt = performance.now();
        entry.status = -1;
        entry.code = "network";
        entry.message = err.message;
      })
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  /** Drops the live feed and reconnects after `ms` (resuming by `?since=` or Last-Event-ID). */
  dropFeed(ms: number, resume: "query" | "header"): void {
    if (this.reconnecting) return;
    this.reconnecting = (async () => {
      await this.feed.close();
      await sleep(ms);
      // The editor resumes from its own revision; a browser's EventSource from the last event id
      // (when it has had one; else from its URL again).
      if (resume === "header" && this.feed.lastEventId >= 0) await this.feed.connect(this.feed.lastEventId, "header");
      else await this.feed.connect(this.store.getSnapshot().revision, "query");
    })().finally(() => {
      this.reconnecting = null;
    });
  }

  /** Waits for the raw requests and the store's queue to be answered, and the feed to be back. */
  async settle(): Promise<void> {
    await this.reconnecting;
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    await this.store.whenIdle();
  }

  async close(): Promise<void> {
    await this.reconnecting?.catch(() => {});
    await this.feed.close();
    this.store.dispose();
  }
}
