import "server-only";
import type { Store } from "@/db/client";
import { AppError } from "@/lib/errors";
import type { JudgeConfigInput } from "@/lib/judge/config";
import { judgeCostUsd } from "@/lib/judge/cost";
import {
  dummySuggestions,
  parseSuggestions,
  suggestionMessages,
  withReasons,
  type SuggestionAnswer,
} from "@/lib/judge/lab/calibration";
import { judgeConfigFields } from "@/server/judge/configs/judge-config-view";
import { requireJudgeConfig } from "@/server/judge/configs/list-judge-configs";
import { chatModelFor } from "@/server/judge/judge-engine";
import { listCalibrationOverrides, requirePaper } from "./calibration";

/**
 * Suggests judge-addendum text from a paper's overrides (staff), through a judge configuration:
 * one call to its model with the overrides that have a reason, each suggestion linked to the
 * overrides it names. The Dummy and Random kinds make no call: their suggestions are built from
 * the reasons alone and marked so. Nothing is stored: staff edit and accept (`accept-addendum.ts`).
 */
export async function suggestAddendum(
  store: Store,
  paperId: string,
  request: { configId: string; overrideIds?: readonly string[] },
  env: Record<string, string | undefined> = process.env,
): Promise<SuggestionAnswer> {
  const paper = await requirePaper(store, paperId);
  const config = await requireJudgeConfig(store, request.configId);
  if (config.archivedAt)
    throw new AppError("conflict", `The judge configuration "${config.name}" is archived`, [
      { path: "configId", message: "is archived" },
    ]);
  let overrides = await listCalibrationOverrides(store, paperId);
  if (request.overrideIds) {
    const byId = new Map(overrides.map((o) => [o.id, o]));
    overrides = request.overrideIds.map((id, i) => {
      const found = byId.get(id);
      if (!found)
        throw new AppError("bad_request", `Override ${id} is no override of the judge on this paper`, [
          { path: `overrideIds[${i}]`, message: "is not an override of this paper" },
        ]);
      return found;
    });
  }
  const usable = withReasons(overrides);
  if (usable.length === 0)
    throw new AppError("conflict", "No override of the judge on this paper gives a reason to learn from");
  if (config.kind !== "llm") {
    return {
      generatedBy: "dummy",
      configName: config.name,
      model: null,
      suggestions: dummySuggestions(usable),
      notes: [],
      costUsd: 0,
    };
  }
  const fields: JudgeConfigInput = judgeConfigFields(config);
  let answer;
  try {
    answer = await chatModelFor(fields, env).complete({
      model: fields.model,
      messages: suggestionMessages(paper, usable),
      ...(fields.reasoningEffort ? { reasoningEffort: fields.reasoningEffort } : {}),
    });
  } catch (err) {
    throw new AppError(
      "conflict",
      `The model of "${config.name}" did not answer: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const parsed = parseSuggestions(answer.content, new Set(usable.map((o) => o.id)));
  if (!parsed)
    throw new AppError("conflict", `The model of "${config.name}" answered no suggestions in the shape asked for`);
  return {
    generatedBy: "model",
    configName: config.name,
    model: fields.model,
    suggestions: parsed.suggestions,
    notes: parsed.notes,
    costUsd: judgeCostUsd(fields, answer.usage),
  };
}
