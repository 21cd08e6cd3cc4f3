/**
 * The judge lab and calibration as the API and the page give them (see `server/judge/lab/`).
 * Shared by the server and the browser.
 */
import type { Variant } from "@/lib/grading/variant";
import type { JudgeKind } from "@/lib/judge/config";
import type { JudgeRunStatus } from "@/lib/judge/views";
import type { CalibrationOverride } from "./calibration";
import type { LabGroupMetrics } from "./metrics";

/** A submission with a human truth the lab can compare a judge with. */
export interface LabSubmission {
  submissionId: string;
  paperId: string;
  paperTitle: string;
  agentName: string;
  runIndex: number;
  variant: Variant;
  /** The grading taken as truth: the latest human grading, else the judge grading a review covered last. */
  truthGradingId: string;
  truth: "human_grading" | "review";
}

export interface LabSummary {
  id: string;
  name: string;
  createdAt: string;
  runs: number;
  pending: number;
  paperIds: string[];
}

/** One run of a lab. */
export interface LabRunView {
  judgeRunId: string;
  gradingId: string;
  submissionId: string;
  paperId: string;
  agentName: string;
  runIndex: number;
  configId: string | null;
  configName: string;
  status: JudgeRunStatus;
  leavesDone: number;
  leavesTotal: number;
  costUsd: number;
  durationS: number | null;
  addendumVersion: number | null;
  /** F1 of this run against its truth, once it succeeded. */
  f1: number | null;
}

/** A configuration's row of the lab's table (a group per configuration, or per configuration and addendum version). */
export interface LabGroupView extends LabGroupMetrics {
  configId: string | null;
  configName: string;
  kind: JudgeKind | null;
  model: string | null;
  isDefault: boolean;
  addendumVersion: number | null;
}

export interface LabView {
  lab: LabSummary;
  runs: LabRunView[];
  groups: LabGroupView[];
  /** Pairs whose scores JudgeEval cannot read (not 0/1), left out of the metrics. */
  skipped: { judgeRunId: string; message: string }[];
}

export interface AddendumVersionView {
  version: number;
  text: string;
  overrideIds: string[];
  note: string;
  createdAt: string;
  createdBy: string | null;
}

/** A paper's calibration: overrides of the judge with reasons, the addendum's versions, F1 by addendum. */
export interface CalibrationView {
  paper: { id: string; title: string; judgeAddendum: string };
  overrides: CalibrationOverride[];
  versions: AddendumVersionView[];
  /** The latest accepted version (0: none yet): an acceptance names it as its base. */
  latestVersion: number;
  /** The paper's lab runs grouped by configuration and the addendum version they ran with. */
  byAddendum: LabGroupView[];
  /** The paper's human-labelled submissions. */
  submissions: LabSubmission[];
  /**
   * What "re-run the judge lab on this paper" runs: the submissions, configurations and variant of
   * its lab runs so far (the latest run's variant; before the first, the lab's default).
   */
  rerun: { submissionIds: string[]; configIds: string[]; variant: Variant };
}
