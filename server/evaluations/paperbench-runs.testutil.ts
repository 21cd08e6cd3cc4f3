/** Test-only: a PaperBench `runs/` folder made on disk, with judge outputs of known scores. */
import fs from "node:fs";
import path from "node:path";
import { parseGradedJson } from "@/lib/grading/graded-tree";
import { serializeJudgeOutput } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";
import type { RubricNode } from "@/lib/rubric/types";
import { makeTarGz } from "@/server/submissions/archive.testutil";

export const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
export const DEMO_PAPER = "demo-adaptive-clipping";

/** The demo rubric graded with leaf `i` scored `pattern[i % pattern.length]` (internal scores recomputed). */
export function gradeDemoRubric(pattern: readonly number[]): GradedNode {
  const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
  let n = 0;
  const convert = (node: RubricNode): GradedNode => {
    const kids = node.sub_tasks.map(convert);
    return {
      ...node,
      score: kids.length ? 0 : pattern[n++ % pattern.length],
      valid_score: true,
      explanation: kids.length ? "Aggregated score from sub-tasks." : `leaf ${n}`,
      judge_metadata: null,
      sub_tasks: kids,
    };
  };
  const parsed = parseGradedJson(JSON.stringify(convert(rubric)));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.file.tree;
}

export interface MadeRun {
  runGroupId: string;
  runId: string;
  judgeOutputText: string | null;
  score: number | null;
}

/**
 * `runs/<group>/<paper>_<n>/grade.json` per run group (group names sort in the given order), with
 * the judge output of `patterns[i]` (null: no judge output, as PaperBench writes a failed run) and
 * two `submissions/<timestamp>/` folders, the later one holding the real `submission.tar.gz`.
 * `reproduction[i]` goes into the grade's `reproduction_metadata`.
 */
export async function makePaperBenchRuns(
  root: string,
  patterns: readonly (readonly number[] | null)[],
  reproduction: readonly (Record<string, unknown> | null)[] = [],
  /**
   * Per run: the executed files of the latest submission folder (metadata, archive, and the
   * grader output, which then replaces the grade's judge output: the grade says null).
   */
  executed: readonly ({ metadata: Record<string, unknown>; graderOutput: boolean } | null)[] = [],
): Promise<MadeRun[]> {
  const made: MadeRun[] = [];
  const archive = await makeTarGz([
    { name: "reproduce.sh", data: "#!/bin/bash\necho reproduced > out.txt\n" },
    { name: "README.md", data: "# the agent's repository\n" },
  ]);
  const stale = await makeTarGz([{ name: "STALE", data: "an earlier attempt\n" }]);
  for (let i = 0; i < patterns.length; i++) {
    const runGroupId = `2025-04-0${i + 1}T10-00-00-UTC_run-group_basicagent`;
    const runId = `${DEMO_PAPER}_0000000${i}-aaaa-bbbb-cccc-dddddddddddd`;
    const dir = path.join(root, runGroupId, runId);
    const pattern = patterns[i];
    const tree = pattern ? gradeDemoRubric(pattern) : null;
    const judgeOutputText = tree
      ? serializeJudgeOutput(tree, { judgeType: "simple", gradedAt: "2025-04-01T12-30-05-UTC" })
      : null;
    const grade = {
      paperbench_result: {
        paper_id: DEMO_PAPER,
        run_id: runId,
        submission_exists: true,
        skipped_reproduction: false,
        code_only: false,
        resources_provided: false,
        agent_output: null,
        judge_output: judgeOutputText && !executed[i]?.graderOutput ? JSON.parse(judgeOutputText) : null,
        reproduction_metadata: reproduction[i] ?? null,
        monitor_result: null,
        monitor_ran: false,
      },
      score: tree ? tree.score : 0,
      grader_log: "",
    };
    fs.mkdirSync(path.join(dir, "submissions", "2025-04-01T11-00-00-UTC"), { recursive: true });
    fs.mkdirSync(path.join(dir, "submissions", "2025-04-01T12-00-00-UTC"), { recursive: true });
    fs.writeFileSync(path.join(dir, "grade.json"), JSON.stringify(grade, null, 4));
    fs.writeFileSync(path.join(dir, "submissions", "2025-04-01T11-00-00-UTC", "submission.tar.gz"), stale);
    fs.writeFileSync(path.join(dir, "submissions", "2025-04-01T12-00-00-UTC", "submission.tar.gz"), archive);
    const extra = executed[i];
    if (extra) {
      const latest = path.join(dir, "submissions", "2025-04-01T12-00-00-UTC");
      fs.writeFileSync(path.join(latest, "submission_executed_metadata.json"), JSON.stringify(extra.metadata));
      fs.writeFileSync(
        path.join(latest, "submission_executed.tar.gz"),
        await makeTarGz([{ name: "reproduce.log", data: "ran\n" }]),
      );
      if (extra.graderOutput && judgeOutputText)
        fs.writeFileSync(path.join(latest, "submission_executed_grader_output_0.json"), judgeOutputText);
    }
    made.push({ runGroupId, runId, judgeOutputText, score: tree ? tree.score : null });
  }
  return made;
}
