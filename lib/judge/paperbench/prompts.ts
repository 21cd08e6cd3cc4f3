/**
 * PaperBench's prompt texts as the studio holds them after reading them from PaperBench's own
 * source at run time (server/judge/paperbench-prompts.ts). The texts are never stored in the
 * repository; this module only names their shape.
 */
import { z } from "zod";

export interface PaperbenchPrompts {
  /** The COMMIT file next to `paperbench/` (PaperBench's commit), else null. */
  commit: string | null;
  /** Absolute path of the `paperbench/judge/constants.py` that was read. */
  sourcePath: string;
  /** `build_judge_task_prompt(code_only=True)` and `(False)`. */
  judgeTaskPrompt: { codeOnly: string; full: string };
  /** `GRADING_PROMPT(continuous=False)` and `(True)`. */
  gradingPrompt: { binary: string; continuous: string };
  /** `CRITERION_PROMPT`, unformatted (fields: preceding_criteria, criterion, task_category, task_category_question). */
  criterionPrompt: string;
  /** `FILE_RANKING_PROMPT`. */
  fileRankingPrompt: string;
  /** `TASK_CATEGORY_QUESTIONS` of `paperbench/rubric/tasks.py`. */
  taskCategoryQuestions: Record<string, string>;
}

/** What the extraction script prints (everything but commit and sourcePath). */
export const extractedPromptsSchema = z
  .object({
    judgeTaskPrompt: z.object({ codeOnly: z.string(), full: z.string() }).strict(),
    gradingPrompt: z.object({ binary: z.string(), continuous: z.string() }).strict(),
    criterionPrompt: z.string(),
    fileRankingPrompt: z.string(),
    taskCategoryQuestions: z.record(z.string(), z.string()),
  })
  .strict();
