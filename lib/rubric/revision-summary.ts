/**
 * One line per revision of the log ("Changed weight of “Train the model”", "Restored a version:
 * 12 changes"), from a digest the database computes, so that listing revisions never loads the
 * logged trees and texts. Pure.
 */
import { LINT_LABELS, type LintCode } from "./editor-lint";

export interface RevisionDigest {
  kind: string;
  /** Imports: how many nodes the imported tree had. */
  importedNodes?: number | null;
  /** Simple operations: how many nodes, keys or moves it lists. */
  size?: number | null;
  /** Updates: the fields changed. */
  fields?: string[] | null;
  /** Batches: how many operations of each kind it holds. */
  parts?: Record<string, number> | null;
  /** The requirement text (now) of the first node the operation names. */
  nodeText?: string | null;
  /** Lint dismissals: the code. */
  code?: string | null;
}

const FIELD_LABELS: Record<string, string> = {
  requirements: "requirements",
  weight: "weight",
  taskCategory: "category",
  finegrainedTaskCategory: "fine-grained category",
  nodeId: "PaperBench id",
};

const PART_LABELS: Record<string, [string, string]> = {
  create: ["addition", "additions"],
  update: ["edit", "edits"],
  move: ["move", "moves"],
  delete: ["delete", "deletes"],
  restore: ["restore", "restores"],
};

const count = (n: number, [one, many]: [string, string]) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

function quote(text: string | null | undefined, max = 60): string {
  if (text == null) return "";
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return "";
  return ` “${flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat}”`;
}

export function summarizeRevision(d: RevisionDigest): string {
  const n = d.size ?? 1;
  switch (d.kind) {
    case "import":
      return d.importedNodes != null
        ? `Imported the rubric (${count(d.importedNodes, ["node", "nodes"])})`
        : "Imported the rubric";
    case "create":
      return n === 1
        ? `Added${quote(d.nodeText) || " a node"}`
        : `Added${quote(d.nodeText) || " a subtree"} with ${count(n - 1, ["node", "nodes"])} below`;
    case "update": {
      const fields = (d.fields ?? []).map((f) => FIELD_LABELS[f] ?? f);
      return `Changed ${fields.length > 0 ? fields.join(", ") : "a node"}${fields.length > 0 && d.nodeText != null ? " of" : ""}${quote(d.nodeText)}`;
    }
    case "move":
      return n === 1 ? `Moved${quote(d.nodeText) || " a node"}` : `Moved ${count(n, ["node", "nodes"])}`;
    case "delete":
      return n === 1 ? `Deleted${quote(d.nodeText) || " a subtree"}` : `Deleted ${count(n, ["subtree", "subtrees"])}`;
    case "restore":
      return n === 1 ? `Restored${quote(d.nodeText) || " a subtree"}` : `Restored ${count(n, ["subtree", "subtrees"])}`;
    case "dismiss":
    case "undismiss": {
      const rule = `“${LINT_LABELS[d.code as LintCode] ?? d.code}” warning`;
      const what = d.nodeText != null ? `the ${rule} on${quote(d.nodeText)}` : `every ${rule}`;
      return d.kind === "dismiss" ? `Dismissed ${what}` : `Brought back ${what}`;
    }
    case "batch": {
      const parts = Object.entries(d.parts ?? {})
        .filter(([, k]) => k > 0)
        .map(([kind, k]) => (PART_LABELS[kind] ? count(k, PART_LABELS[kind]) : `${k} ${kind}`));
      return parts.length > 0 ? `Several changes at once: ${parts.join(", ")}` : "Several changes at once";
    }
    default:
      return d.kind;
  }
}
