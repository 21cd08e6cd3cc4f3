/** This editor's own changes to undo and redo (the rubric store's): the inverses the server handed back, newest last. */
import type { Origin, Pending, UndoEntry } from "./rubric-store-types";

export class UndoHistory {
  private undos: UndoEntry[] = [];
  private redos: UndoEntry[] = [];

  /** A new change of this editor: what was undone can no longer be redone. */
  clearRedo(): void {
    this.redos = [];
  }

  /** The inverse of a confirmed change: an undo's goes on the redo stack, any other's on the undo stack. */
  record(origin: Origin, entry: UndoEntry): void {
    if (origin === "undo") this.redos.push(entry);
    else this.undos.push(entry);
  }

  /** Takes the latest entry of the undo (or redo) stack, or the one with id `target`; null when there is none. */
  take(origin: Origin, target?: string): UndoEntry | null {
    const stack = origin === "undo" ? this.undos : this.redos;
    const at = target !== undefined ? stack.findIndex((e) => e.id === target) : stack.length - 1;
    if (at < 0) return null;
    return stack.splice(at, 1)[0];
  }

  /** What the undo and redo buttons show, counting the undos and redos still queued in `pending`. */
  state(pending: readonly Pending[], canEdit: boolean) {
    const pendingDo = pending.filter((p) => p.origin !== "undo").length;
    const pendingUndo = pending.filter((p) => p.origin === "undo").length;
    const pendingRedo = pending.filter((p) => p.origin === "redo").length;
    return {
      canUndo: canEdit && this.undos.length + pendingDo - pendingUndo > 0,
      canRedo: canEdit && this.redos.length - pendingRedo > 0,
      undoLabel: this.undos.at(-1)?.label ?? null,
      redoLabel: this.redos.at(-1)?.label ?? null,
    };
  }
}
