/**
 * Validation problems in the words of the person who made them: "Requirement is too long: 150,800
 * characters, the limit is 100,000", not "op.fields.requirements: must be at most 100000
 * characters". API answers keep each problem's `path` and `message` for programs (`ErrorDetail`);
 * this is the one place that turns them into sentences for people (the answer's top-level
 * `message`, the toasts and fields that show it). Pure; runs in the browser and the server.
 */
import type { core, ZodError } from "zod";
import type { ErrorDetail } from "@/lib/errors";

const count = (n: number) => n.toLocaleString("en");

/** A text over its limit, as a predicate of its field. */
export function tooLongWords(length: number, max: number): string {
  return `is too long: ${count(length)} characters, the limit is ${count(max)}`;
}

/** `.max(max, maxChars(max))` on a text schema: the refusal says how long the text is, not just the limit. */
export function maxChars(max: number) {
  return {
    error: (issue: { input?: unknown }) =>
      tooLongWords(typeof issue.input === "string" ? issue.input.length : max + 1, max),
  };
}

/** Field names whose words are not just the name split up. */
const FIELD_WORDS: Record<string, string> = {
  requirements: "Requirement",
  nodeId: "PaperBench id",
  finegrainedTaskCategory: "Fine-grained category",
  body: "The file",
  op: "The change",
  gpus: "GPUs",
  timeoutS: "Timeout (seconds)",
};

/** The field a detail's path names (`op.fields.requirements`, `ids[0]`, `graders.2`), in words. */
export function fieldWords(path: string): string {
  const names = path.match(/[A-Za-z_][A-Za-z0-9_]*/g);
  const name = names?.at(-1);
  if (!name || path === "(root)") return "The request";
  const words =
    FIELD_WORDS[name] ??
    name
      .replace(/_/g, " ")
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  const item = /(?:\[(\d+)\]|\.(\d+))$/.exec(path);
  return item ? `${label} (item ${Number(item[1] ?? item[2]) + 1})` : label;
}

/** One problem as a sentence: its field in words, then what is wrong. */
export function problemSentence(detail: ErrorDetail): string {
  return `${fieldWords(detail.path)} ${detail.message}`;
}

/** Every problem, not only the first, as one text. */
export function problemsSentence(details: readonly ErrorDetail[]): string {
  return details.map(problemSentence).join("; ");
}

/** How zod's own English messages begin ("Invalid input: expected number, received string", "Too big: …"). */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized key)/;

/**
 * What a zod issue says is wrong, as a predicate ("must be a number"). The studio's schemas word
 * their own messages so ("must …", "is …"); zod's defaults are put in the same words from the
 * issue's fields.
 */
export function issuePredicate(issue: core.$ZodIssue): string {
  const own = issue.message;
  if (!ZOD_DEFAULT.test(own)) return own;
  switch (issue.code) {
    case "invalid_type":
      return / received undefined$/.test(own) ? "is missing" : `must be ${article(issue.expected)}`;
    case "too_big":
      if (issue.origin === "string") return `is too long: the limit is ${count(Number(issue.maximum))} characters`;
      if (issue.origin === "array" || issue.origin === "set")
        return `has too many items: the limit is ${count(Number(issue.maximum))}`;
      return `must be at most ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string")
        return Number(issue.minimum) <= 1
          ? "must not be empty"
          : `must be at least ${count(Number(issue.minimum))} characters`;
      if (issue.origin === "array" || issue.origin === "set")
        return Number(issue.minimum) <= 1
          ? "needs at least one item"
          : `needs at least ${count(Number(issue.minimum))} items`;
      return `must be at least ${issue.minimum}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_format":
      return `must be a valid ${issue.format === "uuid" ? "id" : issue.format}`;
    case "unrecognized_keys":
      return `has fields it does not know: ${issue.keys.join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      return "is not valid";
  }
}

function article(expected: string): string {
  if (expected === "array") return "a list";
  if (expected === "object") return "an object";
  if (expected === "int") return "a whole number";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** `sub_tasks[2].weight`-style paths, as PaperBench users read them. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(root)";
}

/** Each of a schema's problems (every one, not the first) with where it is, for programs, and what is wrong, in words. */
export function zodProblems(err: ZodError): ErrorDetail[] {
  return err.issues.map((issue) => ({ path: formatPath(issue.path), message: issuePredicate(issue) }));
}
