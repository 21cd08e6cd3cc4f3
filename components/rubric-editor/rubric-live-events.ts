/**
 * The rubric's live feed as the store follows it (Server-Sent Events): operations go to the store,
 * the other events (presence, review, comments, ready) to whoever listens; and who is told when
 * someone else deletes nodes. Framework-free, like the store.
 */
import { keysUnder } from "./rubric-edits";
import { LIVE_EVENTS, type LiveEvent, type RemoteOperation } from "./rubric-store-types";
import type { NodeRow } from "@/lib/rubric/tree-rows";

type DeleteListener = (deletedRoots: string[], removed: ReadonlySet<string>) => void;

export class RubricLiveEvents {
  private source: EventSource | null = null;
  private listeners = new Map<LiveEvent, Set<(data: unknown) => void>>();
  private deleteListeners = new Set<DeleteListener>();

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
        for (const listener of this.listeners.get(name) ?? []) listener(data);
      });
    }
    this.source = source;
  }

  close(): void {
    this.source?.close();
    this.source = null;
  }

  on(event: LiveEvent, listener: (data: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
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

  /** Someone else deleted `roots` from `rows`: tells the listeners, with every key that went with them. */
  tellDelete(rows: readonly NodeRow[], roots: string[]): void {
    if (this.deleteListeners.size === 0) return;
    const removed = keysUnder(rows, roots);
    for (const l of this.deleteListeners) l(roots, removed);
  }
}
