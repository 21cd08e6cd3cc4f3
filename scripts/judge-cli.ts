/**
 * The standalone judge, a drop-in for PaperBench's `run_judge.py` (no studio, no database):
 *
 *   npm run judge -- grade --rubric <rubric.json> --submission <dir|archive> [--paper <paper.md>]
 *     [--addendum <file>] [--judge-addendum <file>] [--code-dev] [--max-depth N]
 *     [--mode efficient|paperbench] [--out <grader_output.json>]
 *
 * Configured by OPENAI_BASE_URL, OPENAI_API_KEY, JUDGE_MODEL (o3-mini), JUDGE_PARSE_MODEL
 * (gpt-4o-2024-08-06), JUDGE_CONTEXT_WINDOW (200000), JUDGE_CONCURRENCY (20),
 * JUDGE_REASONING_EFFORT (high). Writes PaperBench's judge output; progress goes to stderr.
 * `--max-depth N` is PaperBench's `max_depth=N` (the root is depth 1: non-leaves at depth N are
 * graded whole). `--mode paperbench` is PaperBench's SimpleJudge, its prompts read from
 * PAPERBENCH_SRC_DIR, and writes its graded tree exactly as PaperBench does.
 * Paper and addenda default to `paper.md`, `addendum.md` and `judge_addendum.md` beside the rubric.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gradedStats } from "@/lib/grading/graded-tree";
import { paperBenchTimestamp, serializeJudgeOutput } from "@/lib/grading/serialize";
import type { JsonValue, JudgeOutputMeta } from "@/lib/grading/types";
import { JUDGE_MODES, REASONING_EFFORTS, type JudgeMode } from "@/lib/judge/config";
import type { JudgeRunInput } from "@/lib/judge/engine-contract";
import { gradeSubmission } from "@/lib/judge/engine/grade-submission";
import { judgedTree, planLeaves, rubricToJudgeTree } from "@/lib/judge/engine/rubric-plan";
import { totalUsage, verdictsUsage } from "@/lib/judge/engine/usage";
import { formatIssue, parseRubricJson } from "@/lib/rubric/paperbench";
import { openSubmission } from "@/server/judge/cli-submission";
import { createOpenAiChatModel } from "@/server/judge/openai-chat-model";
import { loadPaperbenchPrompts } from "@/server/judge/paperbench-prompts";
import type { PbGradedNode } from "@/lib/judge/paperbench/simple-judge";

class UsageError extends Error {}

const USAGE = `usage: npm run judge -- grade --rubric <rubric.json> --submission <dir|archive> [--paper <paper.md>]
  [--addendum <file>] [--judge-addendum <file>] [--code-dev] [--max-depth N] [--mode efficient|paperbench]
  [--out <grader_output.json>]
--max-depth N: PaperBench's max_depth (root = 1): non-leaf criteria at depth N are graded as one
environment: OPENAI_API_KEY (required), OPENAI_BASE_URL, JUDGE_MODEL, JUDGE_PARSE_MODEL, JUDGE_CONTEXT_WINDOW,
  JUDGE_CONCURRENCY, JUDGE_REASONING_EFFORT, PAPERBENCH_SRC_DIR (paperbench mode's prompts)`;

function readOptional(file: string | undefined, fallback: string, what: string): string {
  if (file !== undefined) {
    if (!fs.existsSync(file)) throw new UsageError(`--${what}: no such file: ${file}`);
    return fs.readFileSync(file, "utf8");
  }
  return fs.existsSync(fallback) ? fs.readFileSync(fallback, "utf8") : "";
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`${name} must be a whole number, got ${JSON.stringify(value)}`);
  return n;
}

async function grade(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      rubric: { type: "string" },
      submission: { type: "string" },
      paper: { type: "string" },
      addendum: { type: "string" },
      "judge-addendum": { type: "string" },
      "code-dev": { type: "boolean", default: false },
      "max-depth": { type: "string" },
      mode: { type: "string", default: "efficient" },
      out: { type: "string", default: "grader_output.json" },
    },
  });
  if (!values.rubric) throw new UsageError("--rubric is required");
  if (!values.submission) throw new UsageError("--submission is required");
  if (!(JUDGE_MODES as readonly string[]).includes(values.mode!))
    throw new UsageError(`--mode must be one of ${JUDGE_MODES.join(", ")}`);
  const apiKey = env.OPENAI_API_KEY;
  if (!apiKey) throw new UsageError("OPENAI_API_KEY is not set");
  const effort = env.JUDGE_REASONING_EFFORT || "high";
  if (!(REASONING_EFFORTS as readonly string[]).includes(effort))
    throw new UsageError(`JUDGE_REASONING_EFFORT must be one of ${REASONING_EFFORTS.join(", ")}`);

  if (!fs.existsSync(values.rubric)) throw new UsageError(`--rubric: no such file: ${values.rubric}`);
  const parsed = parseRubricJson(fs.readFileSync(values.rubric, "utf8"));
  if (!parsed.ok)
    throw new UsageError(`${values.rubric} is not a rubric:\n${parsed.errors.map(formatIssue).join("\n")}`);
  if (!fs.existsSync(values.submission))
    throw new UsageError(`--submission: no such file or folder: ${values.submission}`);
  const beside = path.dirname(values.rubric);

  const model = env.JUDGE_MODEL || "o3-mini";
  const parseModel = env.JUDGE_PARSE_MODEL || "gpt-4o-2024-08-06";
  const maxDepthArg = values["max-depth"];
  const submission = await openSubmission(values.submission);
  try {
    const input: JudgeRunInput = {
      rubric: rubricToJudgeTree(parsed.tree),
      paper: {
        markdown: readOptional(values.paper, path.join(beside, "paper.md"), "paper"),
        addendum: readOptional(values.addendum, path.join(beside, "addendum.md"), "addendum"),
        judgeAddendum: readOptional(values["judge-addendum"], path.join(beside, "judge_addendum.md"), "judge-addendum"),
      },
      submission: submission.files,
      codeDev: values["code-dev"]!,
      maxDepth: maxDepthArg === undefined ? null : Math.max(1, positiveInt(maxDepthArg, "--max-depth", 1)),
      mode: values.mode as JudgeMode,
      model,
      parseModel,
      reasoningEffort: effort as JudgeRunInput["reasoningEffort"],
      contextWindow: positiveInt(env.JUDGE_CONTEXT_WINDOW, "JUDGE_CONTEXT_WINDOW", 200_000),
      maxConcurrency: Math.max(1, positiveInt(env.JUDGE_CONCURRENCY, "JUDGE_CONCURRENCY", 20)),
      promptCacheKey: `judge-cli:${path.resolve(values.submission)}`,
    };
    if (input.mode === "paperbench") {
      try {
        input.paperbench = { prompts: await loadPaperbenchPrompts() };
      } catch (err) {
        throw new UsageError(`--mode paperbench is unavailable: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const total = planLeaves(judgedTree(input.rubric, input.codeDev), input.maxDepth).length;
    const chat = createOpenAiChatModel({
      baseUrl: env.OPENAI_BASE_URL || null,
      apiKey,
      maxConcurrency: input.maxConcurrency,
    });
    process.stderr.write(
      `Grading ${total} criteria with ${model} (${input.mode}${input.codeDev ? ", Code-Dev" : ""})\n`,
    );
    let done = 0;
    const started = Date.now();
    const result = await gradeSubmission(input, chat, {
      onVerdict: (v) => {
        done++;
        const mark = v.valid ? `score ${v.score}` : "INVALID";
        process.stderr.write(`[${done}/${total}] ${mark}  ${v.explanation.replace(/\s+/g, " ").slice(0, 100)}\n`);
      },
    });

    const usage = verdictsUsage(result.verdicts);
    const stats = gradedStats(result.tree);
    const meta: JudgeOutputMeta = {
      judge_type: "simple",
      score: result.tree.score,
      num_leaf_nodes: stats.leaves,
      num_invalid_leaf_nodes: stats.invalidLeaves,
      graded_at: paperBenchTimestamp(),
      completer_config: {
        model,
        parse_model: parseModel,
        mode: input.mode,
        reasoning_effort: effort,
        context_window: input.contextWindow,
        base_url: env.OPENAI_BASE_URL || null,
      },
      token_usage: usage as unknown as JsonValue,
      keyOrder: [
        "judge_type",
        "model_name",
        "score",
        "num_leaf_nodes",
        "num_invalid_leaf_nodes",
        "graded_at",
        "graded_task_tree",
        "token_usage",
        "completer_config",
      ],
      extra: { model_name: model },
    };
    if (result.paperbenchTree) {
      // PaperBench's JudgeOutput: its graded tree as SimpleJudge returns it, token usage as
      // get_total_token_usage sums it (grading and parse calls), then this run's settings.
      const pbUsage: Record<string, { in: number; out: number }> = {};
      const sumUsage = (n: PbGradedNode) => {
        if (n.sub_tasks.length === 0) {
          for (const [m, u] of Object.entries(n.judge_metadata?.token_usage ?? {})) {
            const t = (pbUsage[m] ??= { in: 0, out: 0 });
            t.in += u.in;
            t.out += u.out;
          }
        }
        n.sub_tasks.forEach(sumUsage);
      };
      sumUsage(result.paperbenchTree);
      const leaves: PbGradedNode[] = [];
      const collect = (n: PbGradedNode) => (n.sub_tasks.length === 0 ? leaves.push(n) : n.sub_tasks.forEach(collect));
      collect(result.paperbenchTree);
      const output = {
        judge_type: "simple",
        model_name: model,
        score: result.paperbenchTree.score,
        num_leaf_nodes: leaves.length,
        num_invalid_leaf_nodes: leaves.filter((l) => !l.valid_score).length,
        graded_at: paperBenchTimestamp(),
        graded_task_tree: result.paperbenchTree,
        token_usage: pbUsage,
        completer_config: meta.completer_config,
        prompts: {
          paperbench_commit: input.paperbench?.prompts.commit ?? null,
          source: input.paperbench?.prompts.sourcePath ?? null,
        },
      };
      fs.writeFileSync(values.out!, JSON.stringify(output, null, 4));
    } else {
      fs.writeFileSync(values.out!, serializeJudgeOutput(result.tree, { meta }));
    }
    const t = totalUsage(usage);
    process.stderr.write(
      `Score ${result.tree.score.toFixed(4)}; ${stats.invalidLeaves} invalid of ${stats.leaves}; ${t.calls} calls, ` +
        `${t.in} input tokens (${t.cached_in} cached), ${t.out} output (${t.reasoning_out} reasoning); ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s. Wrote ${values.out}\n`,
    );
    return 0;
  } finally {
    submission.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "grade")
    throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : "a command is required");
  return grade(rest, process.env);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (
      err instanceof UsageError ||
      (err instanceof TypeError && "code" in err && String(err.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
