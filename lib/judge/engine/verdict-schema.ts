/**
 * The judge's structured verdict: `{valid_score, score, explanation, evidence}`. The JSON schema
 * goes to the endpoint (`response_format: json_schema`, strict); the zod parser checks what comes
 * back, whichever call produced it. A leaf scores 0 or 1; a subtree graded whole, any value in [0, 1].
 */
import { z } from "zod";
import type { Evidence } from "../engine-contract";

export interface ParsedVerdict {
  valid_score: boolean;
  score: number;
  explanation: string;
  evidence: Evidence[];
}

export function verdictJsonSchema(continuous: boolean): { name: string; schema: Record<string, unknown> } {
  return {
    name: continuous ? "subtree_verdict" : "leaf_verdict",
    schema: {
      type: "object",
      additionalProperties: false,
      required: ["valid_score", "score", "explanation", "evidence"],
      properties: {
        valid_score: { type: "boolean", description: "false only when the criterion could not be judged at all" },
        score: continuous
          ? { type: "number", description: "the weighted share of the subtree's criteria met, from 0 to 1" }
          : { type: "integer", enum: [0, 1], description: "1 when the criterion is met, else 0" },
        explanation: { type: "string", description: "why, citing what was found or missing" },
        evidence: {
          type: "array",
          description: "where in the submission the verdict rests (files as shown, line numbers as shown)",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["path", "start_line", "end_line"],
            properties: { path: { type: "string" }, start_line: { type: "integer" }, end_line: { type: "integer" } },
          },
        },
      },
    },
  };
}

const evidenceSchema = z
  .object({ path: z.string().min(1), start_line: z.number().int().min(1), end_line: z.number().int().min(1) })
  .transform((e) => (e.end_line < e.start_line ? { ...e, end_line: e.start_line } : e));

function verdictSchema(continuous: boolean) {
  return z.object({
    valid_score: z.boolean(),
    score: continuous ? z.number().min(0).max(1) : z.union([z.literal(0), z.literal(1)]),
    explanation: z.string(),
    // A parse call summarising a free-form answer may have no lines to cite.
    evidence: z.array(evidenceSchema).default([]),
  });
}

// Built once: zod compiles a schema's parser on its first use, and a judge run parses a verdict per
// leaf (building the schema per answer was a tenth of a judge worker's CPU).
const LEAF_VERDICT = verdictSchema(false);
const SUBTREE_VERDICT = verdictSchema(true);

/** The JSON text inside a possible Markdown fence. */
function unfence(text: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  return (fenced ? fenced[1] : text).trim();
}

export type VerdictParse = { ok: true; verdict: ParsedVerdict } | { ok: false; error: string };

export function parseVerdict(text: string, continuous: boolean): VerdictParse {
  let value: unknown;
  try {
    value = JSON.parse(unfence(text));
  } catch {
    return { ok: false, error: `the answer is not JSON: ${JSON.stringify(text.slice(0, 200))}` };
  }
  const result = (continuous ? SUBTREE_VERDICT : LEAF_VERDICT).safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { ok: false, error: `the answer's ${issue.path.join(".") || "value"} ${issue.message}` };
  }
  const v = result.data;
  return { ok: true, verdict: { ...v, score: v.valid_score ? v.score : 0 } };
}
