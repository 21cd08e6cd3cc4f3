/** The rubric store's types: what it is told, what it keeps, what it shows (see `rubric-store.ts`). */
import type { fetchJson } from "@/components/api/client";
import type { LintDismissal } from "@/lib/rubric/lint-dismissals";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";

export interface NodesResponse {
  rubricId: string | null;
  revision: number;
  canEdit: boolean;
  nodes: NodeRow[];
  dismissals: LintDismissal[];
}

export type Origin = "do" | "undo" | "redo";

export interface SubmitOptions {
  /** What the change was, for messages ("Move 3 nodes"). */
  label: string;
  /** Called (in addition to the store's `onRefused`) when the change is refused, with the reason. */
  onError?: (message: string) => void;
}

export type SubmitResult = { ok: true; id: string } | { ok: false; message: string };

export interface UndoEntry {
  /** The client operation id of the change this entry undoes (or redoes). */
  id: string;
  op: RubricOperation;
  label: string;
}

export interface Pending {
  /** The client operation id, kept across retries so that the server can recognise a repeat. */
  id: string;
  /** `null` for an undo/redo queued behind other changes, resolved when it reaches the head. */
  op: RubricOperation | null;
  origin: Origin;
  label: string;
  /** A targeted undo: the id of the change to undo (from anywhere in the undo stack). */
  target?: string;
  onError?: (message: string) => void;
  attempts: number;
}

export interface RubricSnapshot {
  status: "loading" | "ready" | "error";
  loadError: string | null;
  rubricId: string | null;
  revision: number;
  canEdit: boolean;
  /** The rows as shown: confirmed rows with the pending operations applied. Stable identity between changes. */
  rows: readonly NodeRow[];
  /** The dismissed lint warnings, as of the last reload (a dismissal is not applied optimistically). */
  dismissals: readonly LintDismissal[];
  /** Changes not yet confirmed by the server (the one being sent included). */
  pendingCount: number;
  /** Set while the server cannot be reached; the queue is retried. */
  offline: string | null;
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: string | null;
  redoLabel: string | null;
}

export interface StoreOptions {
  paperId: string;
  canEdit: boolean;
  /** A change the server (or the local check) refused; its optimistic effect is already rolled back. */
  onRefused?: (message: string, info: { label: string; origin: Origin }) => void;
  fetchImpl?: typeof fetchJson;
}

export const LIVE_EVENTS = ["presence", "review", "comments", "ready"] as const;
export type LiveEvent = (typeof LIVE_EVENTS)[number];

/** One event of the live feed (`server/live/rubric-feed.ts` FeedOperation). */
export interface RemoteOperation {
  revision: number;
  kind: string;
  clientOpId: string | null;
  /** Who made it, by name (null: the CLI). */
  userName: string | null;
  op: RubricOperation | null;
}
