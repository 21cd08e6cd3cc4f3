/**
 * SimpleJudge's parse step (`_parse_model_response`): the system text, the `response_format` that
 * openai-python's `.parse` builds for the pydantic models `ParsedJudgeResponseInt` /
 * `ParsedJudgeResponseFloat` (`type_to_response_format_param` → `to_strict_json_schema`: pydantic's
 * `model_json_schema()` with `additionalProperties: false` and every property required), and the
 * validation of the answer (`model_validate_json`, pydantic's lax JSON mode, then the 0..1 check).
 */
import { renderTemplate, type SimpleJudgeTexts } from "./prompts";

/** The parse call's system text: simple.py's f-string with its score instruction. */
export function parseSystemText(texts: SimpleJudgeTexts, continuous: boolean): string {
  return renderTemplate(texts, "parseSystem", {
    score_instruction: continuous ? texts.scoreInstruction.continuous : texts.scoreInstruction.binary,
  });
}

export function parsedResponseModelName(continuous: boolean): string {
  return continuous ? "ParsedJudgeResponseFloat" : "ParsedJudgeResponseInt";
}

/** The json_schema part of the `response_format` (`{name, schema}`; the model layer adds `strict: true`). */
export function parsedResponseFormat(continuous: boolean): { name: string; schema: Record<string, unknown> } {
  const name = parsedResponseModelName(continuous);
  return {
    name,
    schema: {
      properties: {
        valid_score: { title: "Valid Score", type: "boolean" },
        score: { title: "Score", type: continuous ? "number" : "integer" },
        explanation: { title: "Explanation", type: "string" },
      },
      required: ["valid_score", "score", "explanation"],
      title: name,
      type: "object",
      additionalProperties: false,
    },
  };
}

export class ParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ParseError";
  }
}

export interface ParsedJudgeResponse {
  valid_score: boolean;
  score: number;
  explanation: string;
}

const TRUE_STRINGS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_STRINGS = new Set(["0", "off", "f", "false", "n", "no"]);

function laxBool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (v === 0 || v === 1) return v === 1;
  if (typeof v === "string") {
    const s = v.toLowerCase();
    if (TRUE_STRINGS.has(s)) return true;
    if (FALSE_STRINGS.has(s)) return false;
  }
  return undefined;
}

function laxNumber(v: unknown, integer: boolean): number | undefined {
  let n: number | undefined;
  if (typeof v === "number") n = v;
  else if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v.trim()))) n = Number(v.trim());
  if (n === undefined) return undefined;
  if (integer && !Number.isInteger(n)) return undefined;
  return n;
}

/** How Python prints the parsed score in "Score is not between 0 and 1: …" (a float keeps `.0`). */
function pyScore(score: number, continuous: boolean): string {
  return continuous && Number.isInteger(score) ? `${score}.0` : String(score);
}

/**
 * The parse call's answer as SimpleJudge reads it. Errors carry PaperBench's text for the empty
 * answer and the out-of-range score; a pydantic validation error's text (its multi-line report with
 * a docs URL) is summarised instead.
 */
export function validateParsedResponse(content: string, continuous: boolean): ParsedJudgeResponse {
  if (!content) throw new ParseError(`Response could not be parsed: ${content}`);
  const model = parsedResponseModelName(continuous);
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    throw new ParseError(`1 validation error for ${model}: Invalid JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ParseError(`1 validation error for ${model}: Input should be an object`);
  const o = value as Record<string, unknown>;
  const problems: string[] = [];
  const valid = laxBool(o.valid_score);
  if (valid === undefined) problems.push("valid_score");
  const score = laxNumber(o.score, !continuous);
  if (score === undefined) problems.push("score");
  const explanation = typeof o.explanation === "string" ? o.explanation : undefined;
  if (explanation === undefined) problems.push("explanation");
  if (problems.length > 0)
    throw new ParseError(
      `${problems.length} validation error${problems.length > 1 ? "s" : ""} for ${model}: ${problems.join(", ")}`,
    );
  if (!(score! >= 0 && score! <= 1))
    throw new ParseError(`Score is not between 0 and 1: ${pyScore(score!, continuous)}`);
  return { valid_score: valid!, score: score!, explanation: explanation! };
}
