"use client";

import { useCallback, useRef, type RefObject } from "react";
import type { NodeApi, TreeApi } from "react-arborist";
import { toast } from "sonner";
import type { NewNode, RubricOperation } from "@/lib/rubric/operations";
import type { Derived, TreeItem } from "./derive";
import type { RubricStore } from "./rubric-store";
import type { SubmitOptions } from "./rubric-store-types";
import { childNode, copyOfSubtree, deletionOf, moveOf, siblingNode } from "./rubric-edits";
import { submitRequirementEdit, type RequirementEdit } from "./use-requirement-draft";
import type { SelectMode } from "./use-tree-selection";

/**
 * The editor's commands on the rubric (add, duplicate, delete, edit, react-arborist's move, the
 * tree's inline edit of a requirement): each submits one operation to the store and moves the
 * selection. Stable callbacks: they read the latest rubric from a ref, so react-arborist (which
 * rebuilds on any new prop) keeps its rows.
 */
export function useEditorOperations({
  store,
  treeRef,
  derived,
  canEdit,
  requestSelect,
}: {
  store: RubricStore;
  treeRef: RefObject<TreeApi<TreeItem> | null>;
  derived: Derived;
  canEdit: boolean;
  requestSelect(key: string, mode: SelectMode): void;
}) {
  const latest = useRef({ derived, canEdit });
  latest.current = { derived, canEdit };

  const submit = useCallback((op: RubricOperation, options: SubmitOptions) => store.submit(op, options), [store]);

  /** Adds an empty node and starts editing its text; false when the change was refused. */
  const addNode = useCallback(
    (node: NewNode) => {
      const res = submit({ kind: "create", nodes: [node] }, { label: "Add a node" });
      if (res.ok) requestSelect(node.key, "edit");
      return res.ok;
    },
    [submit, requestSelect],
  );

  const addChild = useCallback(
    (parentKey: string | null | undefined) => {
      const { index } = latest.current.derived;
      if (!parentKey || !index.byKey.has(parentKey)) return;
      if (!addNode(childNode(index, parentKey))) return;
      treeRef.current?.open(parentKey);
    },
    [addNode, treeRef],
  );

  const addSibling = useCallback(
    (key: string | null | undefined) => {
      const { index } = latest.current.derived;
      if (!key) return;
      const parent = index.parentOf(key);
      if (!parent) {
        toast.error("The root cannot have siblings: a rubric has one root. Add a child instead (a).");
        return;
      }
      addNode(siblingNode(index, key, parent.key));
    },
    [addNode],
  );

  const duplicate = useCallback(
    (key: string | null | undefined) => {
      const { index } = latest.current.derived;
      if (!key) return;
      const parent = index.parentOf(key);
      if (!parent) {
        toast.error("The root cannot be duplicated: a rubric has one root.");
        return;
      }
      const nodes = copyOfSubtree(index, key, parent.key);
      const res = submit(
        { kind: "create", nodes },
        { label: nodes.length === 1 ? "Duplicate a node" : `Duplicate ${nodes.length} nodes` },
      );
      if (!res.ok) return;
      toast.success(nodes.length === 1 ? "Duplicated 1 node" : `Duplicated ${nodes.length.toLocaleString("en")} nodes`);
      requestSelect(nodes[0].key, "focus");
    },
    [submit, requestSelect],
  );

  const deleteKeys = useCallback(
    (keys: readonly string[]) => {
      const { index } = latest.current.derived;
      const set = new Set(keys.filter((k) => index.byKey.has(k)));
      if (set.size === 0) return;
      if (index.root && set.has(index.root.key)) {
        toast.error("The root cannot be deleted. Delete its sub-tasks instead.");
        return;
      }
      const { top, count, next } = deletionOf(index, set);
      const label = count === 1 ? "Delete 1 node" : `Delete ${count.toLocaleString("en")} nodes`;
      const res = store.submit({ kind: "delete", keys: top }, { label });
      if (!res.ok) return;
      toast(count === 1 ? "Deleted 1 node" : `Deleted ${count.toLocaleString("en")} nodes`, {
        action: { label: "Undo", onClick: () => store.undoChange(res.id) },
      });
      if (next) requestSelect(next, "focus");
    },
    [store, requestSelect],
  );

  const editKey = useCallback(
    (key: string | null | undefined) => {
      const tree = treeRef.current;
      if (!key || !tree || !latest.current.canEdit) return;
      tree.select(key);
      void tree.edit(key);
    },
    [treeRef],
  );

  /* ---------- react-arborist handlers ---------- */
  const onMove = useCallback(
    ({ dragIds, parentId, index: atIndex }: { dragIds: string[]; parentId: string | null; index: number }) => {
      if (!parentId) {
        toast.error("A rubric has one root: drop the nodes under a node.");
        return;
      }
      const op = moveOf(latest.current.derived.index, dragIds, parentId, atIndex);
      if (!op) return;
      if ("error" in op) {
        toast.error(op.error);
        return;
      }
      store.submit(op, { label: op.moves.length === 1 ? "Move a node" : `Move ${op.moves.length} nodes` });
    },
    [store],
  );

  /** Saves the tree's inline edit of a requirement text. */
  const saveRequirements = useCallback((edit: RequirementEdit) => void submitRequirementEdit(submit, edit), [submit]);

  const disableDrop = useCallback(
    ({ parentNode }: { parentNode: NodeApi<TreeItem>; dragNodes: NodeApi<TreeItem>[]; index: number }) =>
      // The invisible top level of react-arborist: a drop there would make a second root.
      parentNode.isRoot || parentNode.level < 0,
    [],
  );

  const onRestored = useCallback(
    (inverse: RubricOperation) => {
      // The panel says so in a toast; the restore is one change on the undo stack.
      store.pushUndo(inverse, "Restore a version");
      void store.reload();
    },
    [store],
  );

  return {
    submit,
    addChild,
    addSibling,
    duplicate,
    deleteKeys,
    editKey,
    onMove,
    saveRequirements,
    disableDrop,
    onRestored,
  };
}

export type EditorOperations = ReturnType<typeof useEditorOperations>;
