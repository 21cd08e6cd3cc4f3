import type { StrandedEdit } from "./rubric-live-events";
import type { RubricStore } from "./rubric-store";
import type { SubmitResult } from "./rubric-store-types";

/**
 * Brings back the node of an edit stranded by someone else's delete, then applies the edit: one
 * restore (unless the node is back already, say by their undo) and the edit with its merge base.
 */
export async function restoreStrandedEdit(
  store: RubricStore,
  { op, deletion }: StrandedEdit,
  label: string,
): Promise<SubmitResult> {
  const present = () => store.rows.some((r) => r.key === op.key);
  if (!present()) {
    const restored = store.submit({ kind: "restore", keys: deletion.roots }, { label: "Restore deleted nodes" });
    if (!restored.ok) return restored;
    await store.whenIdle();
  }
  if (!present()) return { ok: false, message: "The node could not be restored" };
  return store.submit(op, { label });
}
