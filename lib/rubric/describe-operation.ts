import { LINT_LABELS } from "./editor-lint";
import type { RubricOperation, SimpleOperation } from "./operations";

const FIELD_NAMES: Record<string, string> = {
  requirements: "requirements",
  weight: "weight",
  taskCategory: "task category",
  finegrainedTaskCategory: "fine-grained category",
  nodeId: "PaperBench id",
};

/** What an operation did to one node, in words ("changed weight to 3", "moved", "deleted"). */
export function describeOperationFor(op: RubricOperation, key: string): string[] {
  const ops: SimpleOperation[] = op.kind === "batch" ? op.ops : [op];
  const out: string[] = [];
  for (const o of ops) {
    switch (o.kind) {
      case "update":
        if (o.key === key) {
          out.push(
            Object.entries(o.fields)
              .map(([f, v]) =>
                f === "requirements"
                  ? "edited the requirements"
                  : `set ${FIELD_NAMES[f] ?? f} to ${v === null ? "none" : String(v)}`,
              )
              .join(", "),
          );
        }
        break;
      case "create":
        if (o.nodes[0].key === key)
          out.push(o.nodes.length > 1 ? `created it with ${o.nodes.length - 1} nodes below` : "created it");
        else if (o.nodes.some((n) => n.key === key)) out.push("created it (with its parent)");
        else if (o.nodes[0].parentKey === key) out.push("added a child");
        break;
      case "move":
        if (o.moves.some((m) => m.key === key)) out.push("moved it");
        else if (o.moves.some((m) => m.parentKey === key)) out.push("moved a node under it");
        break;
      case "delete":
        if (o.keys.includes(key)) out.push("deleted it");
        break;
      case "restore":
        if (o.keys.includes(key)) out.push("restored it");
        break;
      case "dismiss":
        if (o.key === key) out.push(`dismissed its “${LINT_LABELS[o.code]}” warning: ${o.reason}`);
        break;
      case "undismiss":
        if (o.key === key) out.push(`brought back its “${LINT_LABELS[o.code]}” warning`);
        break;
    }
  }
  return out.length > 0 ? out : ["changed it"];
}
