/**
 * Calibration from overrides: the reasons people gave when they overrode the judge on a paper,
 * turned into judge-addendum text. The model is asked through a judge configuration with the
 * overrides listed by id and answers suggestions that each name the overrides behind them; an
 * answer naming no known override is kept out. The Dummy and Random kinds call no model: their
 * suggestion is built from the reasons alone, deterministically, and says so (`generatedBy`).
 * Pure; no Node built-ins.
 */
import type { ChatMessage } from "@/lib/judge/engine-contract";

/** One override of a judge verdict, as calibration reads it. */
export interface CalibrationOverride {
  id: string;
  gradingId: string;
  submissionId: string;
  agentName: string;
  runIndex: number;
  nodeKey: string;
  nodeId: string;
  requirements: string;
  category: string | null;
  /** The judge's verdict on the leaf, and the score the person gave instead. */
  judgeScore: number;
  humanScore: number;
  reason: string;
  userName: string | null;
  createdAt: string;
}

export interface AddendumSuggestion {
  text: string;
  /** The overrides it came from (ids of `CalibrationOverride`). */
  overrideIds: string[];
}

export interface SuggestionAnswer {
  /** `model`: a model's answer through the configuration; `dummy`: built from the reasons, no model. */
  generatedBy: "model" | "dummy";
  configName: string;
  model: string | null;
  suggestions: AddendumSuggestion[];
  /** What was left out of the answer, and why. */
  notes: string[];
  costUsd: number;
}

/** Overrides a suggestion can learn from: those with a reason. */
export function withReasons(overrides: readonly CalibrationOverride[]): CalibrationOverride[] {
  return overrides.filter((o) => o.reason.trim() !== "");
}

/** Tells the model what the addendum is for and the one answer shape it must give. */
export const SUGGESTION_INSTRUCTIONS = [
  "You help calibrate an LLM judge that grades attempts to replicate a research paper against a rubric of leaf requirements.",
  "People overrode some of the judge's verdicts and said why. Propose short additions to the paper's judge addendum",
  "(instructions the judge reads before grading) so that the judge would have agreed with them.",
  "Generalise from the reasons; do not mention particular submissions or agents. Each suggestion must name the ids of",
  'the overrides it is based on. Answer with JSON only: {"suggestions": [{"text": "...", "overrideIds": ["<id>", ...]}]}',
].join(" ");

/** The messages of the suggestion call: the instructions, the current addendum, the overrides by id. */
export function suggestionMessages(
  paper: { id: string; title: string; judgeAddendum: string },
  overrides: readonly CalibrationOverride[],
): ChatMessage[] {
  const listed = withReasons(overrides).map((o) =>
    [
      `<override id="${o.id}">`,
      `Requirement (${o.category ?? "no category"}): ${o.requirements}`,
      `Judge's score: ${o.judgeScore}; the person's score: ${o.humanScore}`,
      `Reason: ${o.reason.trim()}`,
      "</override>",
    ].join("\n"),
  );
  return [
    { role: "system", content: SUGGESTION_INSTRUCTIONS },
    {
      role: "user",
      content: [
        `Paper: ${paper.title} (${paper.id})`,
        "<current-judge-addendum>",
        paper.judgeAddendum.trim() || "(empty)",
        "</current-judge-addendum>",
        "<overrides>",
        ...listed,
        "</overrides>",
      ].join("\n"),
    },
  ];
}

/** The first JSON object in a text (a bare answer, a fenced block, or one inside prose). */
function firstJsonObject(content: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const candidates = [content.trim(), fenced?.[1]?.trim() ?? ""];
  const start = content.indexOf("{");
  const end = content.lastIndexOf("}");
  if (start >= 0 && end > start) candidates.push(content.slice(start, end + 1));
  for (const c of candidates) {
    if (!c.startsWith("{")) continue;
    try {
      return JSON.parse(c);
    } catch {
      // try the next reading
    }
  }
  return null;
}

/**
 * The suggestions of a model's answer, each with only the override ids it was shown; a suggestion
 * without text or without a known id is left out with a note. Null when the answer holds no
 * `{"suggestions": [...]}`.
 */
export function parseSuggestions(
  content: string,
  knownIds: ReadonlySet<string>,
): { suggestions: AddendumSuggestion[]; notes: string[] } | null {
  const parsed = firstJsonObject(content) as { suggestions?: unknown } | null;
  if (!parsed || !Array.isArray(parsed.suggestions)) return null;
  const suggestions: AddendumSuggestion[] = [];
  const notes: string[] = [];
  parsed.suggestions.forEach((raw: unknown, i: number) => {
    const s = raw as { text?: unknown; overrideIds?: unknown };
    const text = typeof s?.text === "string" ? s.text.trim() : "";
    const ids = Array.isArray(s?.overrideIds) ? s.overrideIds.filter((id): id is string => typeof id === "string") : [];
    const known = [...new Set(ids.filter((id) => knownIds.has(id)))];
    const unknown = ids.filter((id) => !knownIds.has(id));
    if (unknown.length > 0)
      notes.push(`suggestion ${i + 1}: ${unknown.length} id(s) that name no override shown were dropped`);
    if (!text) notes.push(`suggestion ${i + 1}: no text, left out`);
    else if (known.length === 0) notes.push(`suggestion ${i + 1}: names no override shown, left out`);
    else suggestions.push({ text, overrideIds: known });
  });
  return { suggestions, notes };
}

/**
 * Without a model: one suggestion per leaf that was overridden with a reason, quoting the
 * requirement, which way people corrected the judge and their reasons, in the leaf's order of
 * first override. Deterministic.
 */
export function dummySuggestions(overrides: readonly CalibrationOverride[]): AddendumSuggestion[] {
  const byLeaf = new Map<string, CalibrationOverride[]>();
  for (const o of withReasons(overrides)) {
    const list = byLeaf.get(o.nodeId);
    if (list) list.push(o);
    else byLeaf.set(o.nodeId, [o]);
  }
  return [...byLeaf.values()].map((list) => {
    const up = list.filter((o) => o.humanScore > o.judgeScore).length;
    const down = list.filter((o) => o.humanScore < o.judgeScore).length;
    const direction =
      up > down
        ? "People scored this higher than the judge"
        : down > up
          ? "People scored this lower than the judge"
          : "People corrected the judge here";
    const reasons = [...new Set(list.map((o) => o.reason.trim()))];
    return {
      text: `For the requirement "${list[0].requirements}": ${direction}. ${reasons.map((r) => (/[.!?]$/.test(r) ? r : `${r}.`)).join(" ")}`,
      overrideIds: list.map((o) => o.id),
    };
  });
}
