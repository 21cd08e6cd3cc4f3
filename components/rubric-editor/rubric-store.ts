/**
 * The editor's model of one live rubric: the rows the server confirmed (with their revision) and a
 * queue of operations not yet confirmed, sent one at a time in order. What the editor shows is the
 * confirmed rows with the pending operations applied optimistically; when the server refuses one,
 * it is dropped and the shown rows are recomputed (a rollback). Undo and redo replay the inverse
 * operations the server hands back. Framework-free (a `subscribe`/`getSnapshot` pair for React).
 */
import { ApiClientError, fetchJson, jsonInit } from "@/components/api/client";
import { applyOperation } from "@/lib/rubric/apply-operation";
import { OperationError, operationProblems, type OperationResult, type RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { uuid4 } from "./ids";
import { isOptimistic } from "./rubric-edits";
import { RubricLiveEvents, type RemoteDeletion, type StrandedEdit } from "./rubric-live-events";
import { UndoHistory } from "./undo-history";
import type {
  LiveEvent,
  NodesResponse,
  Pending,
  RemoteOperation,
  RubricSnapshot,
  StoreOptions,
  SubmitOptions,
  SubmitResult,
} from "./rubric-store-types";

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class RubricStore {
  private readonly opts: StoreOptions;
  private readonly fetch: typeof fetchJson;
  private listeners = new Set<() => void>();
  private confirmed: readonly NodeRow[] = [];
  private shown: readonly NodeRow[] = [];
  private dismissals: RubricSnapshot["dismissals"] = [];
  private revision = 0;
  private rubricId: string | null = null;
  private serverCanEdit = false;
  private status: RubricSnapshot["status"] = "loading";
  private loadError: string | null = null;
  private offline: string | null = null;
  private pending: Pending[] = [];
  private busy = false;
  private needsRefetch = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly history = new UndoHistory();
  private snapshot: RubricSnapshot;
  private disposed = false;
  private readonly live = new RubricLiveEvents();
  /** This open editor, to the server: its presence on the rubric (one per tab, not per person). */
  readonly sessionId = uuid4();

  constructor(opts: StoreOptions) {
    this.opts = opts;
    this.fetch = opts.fetchImpl ?? fetchJson;
    this.snapshot = this.makeSnapshot();
  }

  private get base() {
    return `/api/papers/${encodeURIComponent(this.opts.paperId)}/rubric`;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = () => this.snapshot;

  get canEdit() {
    return this.opts.canEdit && (this.status !== "ready" || this.serverCanEdit);
  }

  /** The rows as shown right now (the latest, even between renders). */
  get rows(): readonly NodeRow[] {
    return this.shown;
  }

  private makeSnapshot(): RubricSnapshot {
    return {
      status: this.status,
      loadError: this.loadError,
      rubricId: this.rubricId,
      revision: this.revision,
      canEdit: this.canEdit,
      rows: this.shown,
      dismissals: this.dismissals,
      pendingCount: this.pending.length,
      offline: this.offline,
      ...this.history.state(this.pending, this.canEdit),
    };
  }

  private emit() {
    this.snapshot = this.makeSnapshot();
    for (const l of this.listeners) l();
  }

  /** First load (and a retry after a failed one). */
  async load(): Promise<void> {
    const first = this.status === "loading" && !this.loadStarted;
    this.loadStarted = true;
    this.status = "loading";
    this.loadError = null;
    this.emit();
    try {
      // The first load may be answered by the page's preload of the same URL (same request mode).
      await this.refetch(first ? {} : undefined);
      // The open's phases, for the browser's performance panel and the editor bench.
      if (first) performance.mark("editor:data");
      this.status = "ready";
    } catch (err) {
      this.status = "error";
      this.loadError = errorMessage(err);
    }
    this.emit();
  }

  private loadStarted = false;

  private async refetch(init: RequestInit = { cache: "no-store" }): Promise<void> {
    // Cleared before the request, not after: a change announced while it is under way may not be
    // in its answer, and asks for one more reload.
    this.needsRefetch = false;
    let res: NodesResponse;
    try {
      res = await this.fetch<NodesResponse>(`${this.base}/nodes`, init);
    } catch (err) {
      this.needsRefetch = true;
      throw err;
    }
    this.confirmed = res.nodes;
    this.dismissals = res.dismissals;
    this.revision = res.revision;
    this.rubricId = res.rubricId;
    this.serverCanEdit = res.canEdit;
    this.recompute();
  }

  /** Re-reads the rows from the server (after a change made elsewhere, such as a version restore). */
  async reload(): Promise<void> {
    this.needsRefetch = true;
    if (!this.busy) {
      this.busy = true;
      try {
        await this.refetch();
      } catch (err) {
        this.opts.onRefused?.(`Could not reload the rubric: ${errorMessage(err)}`, { label: "Reload", origin: "do" });
      } finally {
        this.busy = false;
        this.emit();
        void this.pump();
      }
    }
  }

  /** shown = confirmed + pending (optimistic ones); pending ones that no longer apply are dropped. */
  private recompute() {
    let rows = this.confirmed;
    const kept: Pending[] = [];
    for (const p of this.pending) {
      if (p.op && isOptimistic(p.op)) {
        try {
          rows = applyOperation(rows, p.op);
        } catch (err) {
          // The change being sent is the server's to judge; any other one is refused here.
          if (p !== this.inFlight) {
            this.refused(p, errorMessage(err));
            continue;
          }
        }
      }
      kept.push(p);
    }
    this.pending = kept;
    this.shown = rows;
  }

  private inFlight: Pending | null = null;

  private refused(p: Pending, message: string) {
    p.onError?.(message);
    this.opts.onRefused?.(message, { label: p.label, origin: p.origin });
  }

  /**
   * Queues a change: applied to the shown rows at once (create, update, move, delete) and sent to
   * the server in order. A change that cannot apply to the shown rows is refused here, unsent.
   */
  submit(op: RubricOperation, options: SubmitOptions): SubmitResult {
    if (!this.canEdit) return { ok: false, message: "You cannot edit this rubric" };
    // The server's schema first: a text over a limit is refused here, in words, and the field that
    // sent it keeps the text (its `onError`), so nothing is rolled back.
    const problems = operationProblems(op);
    if (problems) {
      if (options.onError) options.onError(problems);
      else this.opts.onRefused?.(problems, { label: options.label, origin: "do" });
      return { ok: false, message: problems };
    }
    if (isOptimistic(op)) {
      try {
        this.shown = applyOperation(this.shown, op);
      } catch (err) {
        // Typed into a node someone else just deleted: kept for whoever offers it back, not lost.
        if (op.kind === "update" && this.live.strand(op))
          return { ok: false, message: "The node was deleted by someone else" };
        const message = err instanceof OperationError ? err.message : errorMessage(err);
        options.onError?.(message);
        this.opts.onRefused?.(message, { label: options.label, origin: "do" });
        return { ok: false, message };
      }
    }
    const id = uuid4();
    this.pending.push({ id, op, origin: "do", label: options.label, onError: options.onError, attempts: 0 });
    this.history.clearRedo();
    this.emit();
    void this.pump();
    return { ok: true, id };
  }

  /** Undoes the latest own change (waiting for the changes still in the queue first). */
  undo(): void {
    this.queueReplay("undo");
  }

  redo(): void {
    this.queueReplay("redo");
  }

  /** Undoes one given change (the "Undo" of a toast), wherever it is in the undo stack. */
  undoChange(changeId: string): void {
    this.queueReplay("undo", changeId);
  }

  /** Puts an inverse the caller got from the server (a version restore) on the undo stack. */
  pushUndo(op: RubricOperation, label: string): void {
    this.history.record("do", { id: uuid4(), op, label });
    this.history.clearRedo();
    this.emit();
  }

  private queueReplay(origin: "undo" | "redo", target?: string) {
    if (!this.canEdit) return;
    const entry: Pending = {
      id: uuid4(),
      op: null,
      origin,
      label: origin === "undo" ? "Undo" : "Redo",
      target,
      attempts: 0,
    };
    this.pending.push(entry);
    if (this.pending.length === 1) this.resolveReplay(entry);
    this.emit();
    void this.pump();
  }

  /** Takes the op of a queued undo/redo from its stack; `false` when there is nothing to replay. */
  private resolveReplay(p: Pending): boolean {
    if (p.op) return true;
    const entry = this.history.take(p.origin, p.target);
    if (!entry) {
      this.pending = this.pending.filter((x) => x !== p);
      return false;
    }
    p.op = entry.op;
    p.label = `${p.origin === "undo" ? "Undo" : "Redo"} ${entry.label.charAt(0).toLowerCase()}${entry.label.slice(1)}`;
    if (isOptimistic(entry.op)) {
      // Applied in queue order: recompute from the confirmed rows.
      this.recompute();
      if (!this.pending.includes(p)) return false;
    }
    return true;
  }

  private async pump(): Promise<void> {
    if (this.busy || this.disposed) return;
    if (this.retryTimer) return;
    let head = this.pending[0];
    while (head && !this.resolveReplay(head)) head = this.pending[0];
    if (!head) {
      if (this.needsRefetch) await this.reload();
      this.emit();
      return;
    }
    const op = head.op!;
    this.busy = true;
    this.inFlight = head;
    this.emit();
    let result: OperationResult | null = null;
    let failure: unknown = null;
    try {
      result = await this.fetch<OperationResult>(
        `${this.base}/operations`,
        // With this tab's live-feed id: the feed then does not send the change back.
        jsonInit("POST", { clientOpId: head.id, baseRevision: this.revision, op, editorSession: this.sessionId }),
      );
    } catch (err) {
      failure = err;
    }
    this.inFlight = null;

    if (result) {
      this.offline = null;
      head.attempts = 0;
      this.pending.shift();
      // Applied as sent: nobody else's change came in between and the server merged no text of
      // theirs into ours. Otherwise (or for a change the client does not apply itself) the
      // server's rows are taken.
      const appliedAsSent = result.revision === this.revision + 1 && !result.merged;
      if (!appliedAsSent || !isOptimistic(op)) this.needsRefetch = true;
      if (isOptimistic(op)) {
        // The last change in the queue, applied as sent: the shown rows are the confirmed rows
        // with it applied already, so no second pass over every row.
        if (appliedAsSent && this.pending.length === 0) this.confirmed = this.shown;
        else {
          try {
            this.confirmed = applyOperation(this.confirmed, op);
          } catch {
            this.needsRefetch = true;
          }
        }
      }
      this.revision = result.revision;
      this.history.record(head.origin, { id: head.id, op: result.inverse, label: head.label });
      if (this.needsRefetch) {
        try {
          await this.refetch();
        } catch (err) {
          this.offline = `Could not reload the rubric: ${errorMessage(err)}`;
        }
      }
    } else if (
      failure instanceof ApiClientError &&
      (failure.status === 0 || failure.status >= 500 || failure.status === 429)
    ) {
      // Not refused: the server was not reached or failed; keep the change and retry.
      head.attempts++;
      this.offline = failure.status === 0 ? "Offline: retrying" : `Server error: retrying (${failure.message})`;
      const delay = Math.min(10_000, 500 * 2 ** Math.min(head.attempts, 5));
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        void this.pump();
      }, delay);
    } else {
      this.offline = null;
      this.pending.shift();
      const message = errorMessage(failure);
      this.refused(head, message);
      // 409/404: our rows may be stale; take the server's. Otherwise just roll back.
      const stale = failure instanceof ApiClientError && (failure.status === 409 || failure.status === 404);
      if (stale) {
        try {
          await this.refetch();
        } catch {
          this.recompute();
        }
      } else this.recompute();
    }
    this.busy = false;
    this.emit();
    if (!this.retryTimer) void this.pump();
  }

  /** Resolves once every queued change has been answered by the server. */
  whenIdle(): Promise<void> {
    if (this.pending.length === 0 && !this.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.subscribe(() => {
        if (this.pending.length === 0 && !this.busy) {
          off();
          resolve();
        }
      });
    });
  }

  /**
   * Follows the rubric live (Server-Sent Events): changes made by other people arrive as operations.
   * The browser's EventSource reconnects by itself and resumes after the last revision it saw.
   */
  follow(): void {
    if (this.live.isOpen || this.disposed || typeof EventSource === "undefined") return;
    this.live.open(`${this.base}/events?since=${this.revision}&session=${this.sessionId}`, (event) =>
      this.receiveRemote(event),
    );
  }

  /**
   * Calls `listener` with each `event` of the live feed besides operations: `presence` (everyone
   * on the rubric), `review` and `comments` (they changed: refetch), `ready` (the stream (re)opened).
   */
  onLive(event: LiveEvent, listener: (data: unknown) => void): () => void {
    return this.live.on(event, listener);
  }

  unfollow(): void {
    this.live.close();
  }

  /** An operation from the live feed: someone else's (applied here), or our own (already handled). */
  receiveRemote(event: RemoteOperation): void {
    if (this.disposed || this.status !== "ready" || event.revision <= this.revision) return;
    // Ours, still waiting for its answer: the answer confirms it.
    if (event.clientOpId && this.pending.some((p) => p.id === event.clientOpId)) return;
    if (event.op?.kind === "delete") this.live.tellDelete(this.shown, event.op.keys, event.userName);
    if (!this.busy && event.revision === this.revision + 1 && event.op && isOptimistic(event.op)) {
      try {
        this.confirmed = applyOperation(this.confirmed, event.op);
        this.revision = event.revision;
        this.recompute();
        this.emit();
        return;
      } catch {
        // Our rows and the server's differ: take the server's.
      }
    }
    // Out of order, an import or a batch, or in the middle of our own change: reload the rows.
    void this.reload();
  }

  /** Tells `listener` when someone else deletes nodes: the roots (to restore), every key that went, and who. */
  onRemoteDelete(listener: (deletion: RemoteDeletion) => void): () => void {
    return this.live.onDelete(listener);
  }

  /** Hands `listener` each edit made to a node someone else deleted, instead of refusing it (see `restoreStrandedEdit`). */
  onStrandedEdit(listener: (edit: StrandedEdit) => void): () => void {
    return this.live.onStranded(listener);
  }

  dispose() {
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.unfollow();
    this.listeners.clear();
  }
}
