/**
 * Which judge configuration an evaluation grades with when nobody chose: the one rule shared by
 * the evaluation dialog (its preselection) and the API (a request without `judgeConfigId`). Pure.
 *
 * A model judge in paperbench mode first (so scores are comparable with PaperBench's), the one
 * staff marked default among them first; else the first model judge (the default first); else a
 * placeholder judge (Dummy, Random), whose scores are members-only and never public, said so by
 * `placeholder`. Archived configurations are never chosen, and a model judge whose key is not set
 * where the judge runs (`ready` false) is not configured yet: it is chosen only when nothing is
 * ready (its runs then fail saying the key is missing, rather than a placeholder grading silently).
 */
import type { JudgeKind, JudgeMode } from "./config";

export interface JudgeChoiceCandidate {
  id: string;
  name: string;
  kind: JudgeKind;
  mode: JudgeMode;
  isDefault: boolean;
  archived: boolean;
  /** Runs can start with it (`JudgeConfigView.ready`); absent: ready. */
  ready?: boolean;
}

export interface DefaultJudgeChoice {
  id: string;
  /** The chosen judge is a placeholder: its scores are not public. */
  placeholder: boolean;
}

export function chooseDefaultJudge(configs: readonly JudgeChoiceCandidate[]): DefaultJudgeChoice | null {
  const notArchived = configs.filter((c) => !c.archived);
  const ready = notArchived.filter((c) => c.ready !== false);
  const live = ready.length > 0 ? ready : notArchived;
  const defaultFirst = (list: JudgeChoiceCandidate[]) => list.find((c) => c.isDefault) ?? list[0];
  const models = live.filter((c) => c.kind === "llm");
  const pick =
    defaultFirst(models.filter((c) => c.mode === "paperbench")) ?? defaultFirst(models) ?? defaultFirst(live);
  return pick ? { id: pick.id, placeholder: pick.kind !== "llm" } : null;
}
