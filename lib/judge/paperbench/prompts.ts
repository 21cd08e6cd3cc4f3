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
  /** SimpleJudge's own texts in `paperbench/judge/simple.py` (its f-strings as templates). */
  simpleJudge: SimpleJudgeTexts;
}

/** An f-string of simple.py: its text parts and its `{expression}`s, each by its Python source. */
export type PyTemplate = (string | { expr: string })[];

/** The expressions each template may use: the port knows what to put there (`renderTemplate`). */
export const TEMPLATE_EXPRESSIONS = {
  rankPaper: ["self.paper_md"],
  rankAddendum: ["self.joined_addendum"],
  rankCriterion: ["task.requirements"],
  rankFiles: ["tree_structure", "str(max_files) + ' ' if max_files else ''"],
  gradePaper: ["self.paper_md"],
  gradeAddendum: ["self.joined_addendum"],
  files: ["relevant_files"],
  filesResultAnalysis: ["relevant_files"],
  reproduceSh: ["self.reproduce_sh_content"],
  reproduceLog: ["self.reproduce_log_content"],
  parseSystem: ["score_instruction"],
} as const;
type TemplateName = keyof typeof TEMPLATE_EXPRESSIONS;

export type SimpleJudgeTexts = { [K in TemplateName]: PyTemplate } & {
  /** `score_instruction` of the parse call: `not continuous` / continuous. */
  scoreInstruction: { binary: string; continuous: string };
  /** `TASK_CATEGORY_QUESTIONS.get`'s default. */
  categoryQuestionFallback: string;
  /** A Result Analysis leaf's explanation when reproduce.sh touched no file. */
  noTouchExplanation: string;
  /** `joined_addendum` when there is none. */
  noAddendum: string;
};

/** A template filled in: each expression's value from `values`, by its source. */
export function renderTemplate<K extends TemplateName>(
  texts: SimpleJudgeTexts,
  name: K,
  values: Record<(typeof TEMPLATE_EXPRESSIONS)[K][number], string>,
): string {
  return texts[name]
    .map((part) => (typeof part === "string" ? part : (values as Record<string, string>)[part.expr]))
    .join("");
}

const template = (name: TemplateName) =>
  z.array(z.union([z.string(), z.object({ expr: z.string() }).strict()])).superRefine((parts, ctx) => {
    const known: readonly string[] = TEMPLATE_EXPRESSIONS[name];
    for (const part of parts) {
      if (typeof part !== "string" && !known.includes(part.expr)) {
        ctx.addIssue({
          code: "custom",
          message: `simple.py's ${name} text uses {${part.expr}}, which the studio's port does not fill (it knows ${known.join(", ")})`,
        });
      }
    }
  });

const simpleJudgeTextsSchema = z
  .object({
    ...(Object.fromEntries(
      (Object.keys(TEMPLATE_EXPRESSIONS) as TemplateName[]).map((name) => [name, template(name)]),
    ) as { [K in TemplateName]: ReturnType<typeof template> }),
    scoreInstruction: z.object({ binary: z.string(), continuous: z.string() }).strict(),
    categoryQuestionFallback: z.string(),
    noTouchExplanation: z.string(),
    noAddendum: z.string(),
  })
  .strict();

/** What the extraction script prints (everything but commit and sourcePath). */
export const extractedPromptsSchema = z
  .object({
    judgeTaskPrompt: z.object({ codeOnly: z.string(), full: z.string() }).strict(),
    gradingPrompt: z.object({ binary: z.string(), continuous: z.string() }).strict(),
    criterionPrompt: z.string(),
    fileRankingPrompt: z.string(),
    taskCategoryQuestions: z.record(z.string(), z.string()),
    simpleJudge: simpleJudgeTextsSchema,
  })
  .strict();
