/**
 * The rubric's live feed as the store follows it (Server-Sent Events): operations go to the store,
 * the other events (presence, review, comments, ready) to whoever listens; and who is told when
 * someone else deletes nodes, and when this person's edit of such a node could not be saved.
 * Framework-free, like the store.
 */
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { keysUnder } from "./rubric-edits";
import { LIVE_EVENTS, type LiveEvent, type RemoteOperation } from "./rubric-store-types";

/** Someone else's delete: the roots they deleted (to restore them), every key that went with them, and who. */
export interface RemoteDeletion {
  roots: string[];
  removed: ReadonlySet<string>;
  /** Their name; null when it came from the command line. */
  by: string | null;
}

type UpdateOperation = Extract<RubricOperation, { kind: "update" }>;

/** An edit made to a node that someone else had just deleted: kept, to be restored with its node or copied. */
export interface StrandedEdit {
  op: UpdateOperation;
  deletion: RemoteDeletion;
}

type DeleteListener = (deletion: RemoteDeletion) => void;
type StrandedListener = (edit: StrandedEdit) => void;

export class RubricLiveEvents {
  private source: EventSource | null = null;
  private listeners = new Map<LiveEvent, Set<(data: unknown) => void>>();
  /** The latest data of each event since the stream opened: told to a listener that comes later. */
  private latest = new Map<LiveEvent, unknown>();
  private deleteListeners = new Set<DeleteListener>();
  private strandedListeners = new Set<StrandedListener>();
  /** Each key someone else deleted since this editor opened, with that deletion. */
  private deletedByOthers = new Map<string, RemoteDeletion>();

  get isOpen(): boolean {
    return this.source !== null;
  }

  /** Opens the stream at `url`; the browser's EventSource reconnects by itself. */
  open(url: string, onOperation: (event: RemoteOperation) => void): void {
    const source = new EventSource(url);
    source.addEventListener("op", (e) => onOperation(JSON.parse((e as MessageEvent<string>).data) as RemoteOperation));
    for (const name of LIVE_EVENTS) {
      source.addEventListener(name, (e) => {
        const data: unknown = JSON.parse((e as MessageEvent<string>).data);
        this.latest.set(name, data);
        for (const listener of this.listeners.get(name) ?? []) listener(data);
      });
    }
    this.source = source;
  }

  close(): void {
    this.source?.close();
    this.source = null;
    this.latest.clear();
  }

  /**
   * Calls `listener` with each `event` from now on and, when one already came since the stream
   * opened, at once with the latest. The panels subscribe once they are on screen, which can be after
   * the stream's first events: a `review` sent then (a sign-off heard while this editor connected)
   * was lost, and the editor kept saying "Draft".
   */
  on(event: LiveEvent, listener: (data: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    if (this.latest.has(event)) listener(this.latest.get(event));
    return () => {
      set.delete(listener);
    };
  }

  onDelete(listener: DeleteListener): () => void {
    this.deleteListeners.add(listener);
    return () => {
      this.deleteListeners.delete(listener);
    };
  }

  onStranded(listener: StrandedListener): () => void {
    this.strandedListeners.add(listener);
    return () => {
      this.strandedListeners.delete(listener);
    };
  }

  /** `by` deleted `roots` from `rows`: tells the listeners, with every key that went with them. */
  tellDelete(rows: readonly NodeRow[], roots: string[], by: string | null): void {
    const deletion: RemoteDeletion = { roots, removed: keysUnder(rows, roots), by };
    for (const key of deletion.removed) this.deletedByOthers.set(key, deletion);
    for (const l of this.deleteListeners) l(deletion);
  }

  /**
   * An edit the shown rows cannot take: when its node was deleted by someone else and someone
   * listens, hands the edit to them (true) instead of it being refused and lost.
   */
  strand(op: UpdateOperation): boolean {
    const deletion = this.deletedByOthers.get(op.key);
    if (!deletion || this.strandedListeners.size === 0) return false;
    for (const l of this.strandedListeners) l({ op, deletion });
    return true;
  }
}
