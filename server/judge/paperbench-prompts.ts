import "server-only";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { extractedPromptsSchema, type PaperbenchPrompts } from "@/lib/judge/paperbench/prompts";

/**
 * PaperBench's prompt texts, read at run time from its source (`PAPERBENCH_SRC_DIR`, default
 * `../shared/paperbench-src` from the project root, or a PaperBench checkout's `project/paperbench`),
 * never copied into the repository.
 *
 * `paperbench/judge/constants.py` has no imports, so python3 runs it (isolated: `-I`, no shell) and
 * prints what its functions return for each variant. `paperbench/rubric/tasks.py` imports packages
 * that are not installed here, so TASK_CATEGORY_QUESTIONS is taken from its syntax tree
 * (`ast.literal_eval` of the assignment) without running it.
 */

const PYTHON_TIMEOUT_MS = 20_000;

/** The folder PaperBench's source is read from. */
export function paperbenchSrcDir(env: Record<string, string | undefined> = process.env): string {
  const configured = env.PAPERBENCH_SRC_DIR?.trim();
  return path.resolve(
    /*turbopackIgnore: true*/ configured || path.join(process.cwd(), "..", "shared", "paperbench-src"),
  );
}

/** The `paperbench` package folder: `<dir>/paperbench` (a checkout's project/paperbench), or `<dir>` itself. */
function packageDir(srcDir: string): string {
  const nested = path.join(srcDir, "paperbench");
  if (fs.existsSync(path.join(nested, "judge", "constants.py"))) return nested;
  if (fs.existsSync(path.join(srcDir, "judge", "constants.py"))) return srcDir;
  return nested; // the error below names the usual layout
}

// Runs with `python3 -I -c SCRIPT constants.py tasks.py simple.py` (-I: no PYTHON* variables, no user site,
// not the current folder on sys.path); prints one JSON object (ASCII: json.dumps escapes the rest),
// or {"error": ...}. constants.py is executed from its source, so no bytecode is written beside it.
const EXTRACT_SCRIPT = String.raw`
import ast, json, sys
constants_path, tasks_path, simple_path = sys.argv[1], sys.argv[2], sys.argv[3]

def fail(message):
    sys.stdout.write(json.dumps({"error": message}))
    sys.exit(0)

def text(value, what):
    if not isinstance(value, str):
        fail(f"{what} is a {type(value).__name__}, not a str")
    return value

try:
    with open(constants_path, encoding="utf-8") as f:
        source = f.read()
except (OSError, UnicodeDecodeError) as e:
    fail(f"cannot read {constants_path}: {e}")
namespace = {"__name__": "paperbench.judge.constants", "__file__": constants_path}
try:
    exec(compile(source, constants_path, "exec"), namespace)
except Exception as e:
    fail(f"running {constants_path} failed: {type(e).__name__}: {e}")

def need(name):
    if name not in namespace:
        fail(f"{constants_path} has no {name}")
    return namespace[name]

try:
    build, grading = need("build_judge_task_prompt"), need("GRADING_PROMPT")
    out = {
        "judgeTaskPrompt": {
            "codeOnly": text(build(True), "build_judge_task_prompt(True)"),
            "full": text(build(False), "build_judge_task_prompt(False)"),
        },
        "gradingPrompt": {
            "binary": text(grading(False), "GRADING_PROMPT(False)"),
            "continuous": text(grading(True), "GRADING_PROMPT(True)"),
        },
        "criterionPrompt": text(need("CRITERION_PROMPT"), "CRITERION_PROMPT"),
        "fileRankingPrompt": text(need("FILE_RANKING_PROMPT"), "FILE_RANKING_PROMPT"),
    }
except Exception as e:
    fail(f"calling the prompt functions of {constants_path} failed: {type(e).__name__}: {e}")

try:
    with open(tasks_path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), tasks_path)
except (OSError, UnicodeDecodeError, SyntaxError) as e:
    fail(f"cannot read {tasks_path}: {e}")
questions = None
for node in tree.body:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    if any(isinstance(t, ast.Name) and t.id == "TASK_CATEGORY_QUESTIONS" for t in targets) and node.value is not None:
        try:
            questions = ast.literal_eval(node.value)
        except ValueError as e:
            fail(f"TASK_CATEGORY_QUESTIONS in {tasks_path} is not a literal: {e}")
if questions is None:
    fail(f"{tasks_path} has no TASK_CATEGORY_QUESTIONS assignment")
if not isinstance(questions, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in questions.items()):
    fail(f"TASK_CATEGORY_QUESTIONS in {tasks_path} is not a dict of str to str")
out["taskCategoryQuestions"] = questions

# simple.py's own texts (the messages wrapped around paper, addenda, files and logs, the parse
# call's system text, a few constants), read from its syntax tree without running it. An f-string
# becomes a template: its text parts, and each {expression} by its source (ast.unparse).
try:
    with open(simple_path, encoding="utf-8") as f:
        simple = ast.parse(f.read(), simple_path)
except (OSError, UnicodeDecodeError, SyntaxError) as e:
    fail(f"cannot read {simple_path}: {e}")
judge = next((n for n in simple.body if isinstance(n, ast.ClassDef) and n.name == "SimpleJudge"), None)
if judge is None:
    fail(f"{simple_path} has no class SimpleJudge")
methods = {n.name: n for n in judge.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

def method(name):
    if name not in methods:
        fail(f"SimpleJudge in {simple_path} has no method {name}")
    return methods[name]

def template(node):
    parts = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(v.value)
        elif v.conversion != -1 or v.format_spec is not None:
            fail(f"an f-string in {simple_path} formats {ast.unparse(v.value)} with a conversion or spec")
        else:
            parts.append({"expr": ast.unparse(v.value)})
    return parts

def with_expr(fn, expr):
    found = [template(n) for n in ast.walk(method(fn)) if isinstance(n, ast.JoinedStr)]
    found = [t for t in found if any(isinstance(p, dict) and p["expr"] == expr for p in t)]
    if not found or any(t != found[0] for t in found):
        fail(f"SimpleJudge.{fn} in {simple_path}: expected one message text using {{{expr}}}, found {len(found)}")
    return found[0]

def if_exp(fn, target):
    for n in ast.walk(method(fn)):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == target for t in n.targets) and isinstance(n.value, ast.IfExp):
            return n.value
    fail(f"SimpleJudge.{fn} in {simple_path} has no '{target} = … if … else …'")

def constant(fn, pick, what):
    for n in ast.walk(method(fn)):
        value = pick(n)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    fail(f"SimpleJudge.{fn} in {simple_path}: cannot find {what}")

files = if_exp("_construct_grade_leaf_messages", "relevant_files_prompt")
score = if_exp("_parse_model_response", "score_instruction")
if not (isinstance(files.body, ast.JoinedStr) and isinstance(files.orelse, ast.JoinedStr)
        and ast.unparse(files.test) == "task.task_category != 'Result Analysis'"):
    fail(f"relevant_files_prompt in {simple_path} is not the two f-strings by Result Analysis it used to be")
if not (isinstance(score.body, ast.Constant) and isinstance(score.orelse, ast.Constant) and ast.unparse(score.test) == "not continuous"):
    fail(f"score_instruction in {simple_path} is not the two texts by 'continuous' it used to be")
out["simpleJudge"] = {
    "rankPaper": with_expr("_prepare_relevant_files", "self.paper_md"),
    "rankAddendum": with_expr("_prepare_relevant_files", "self.joined_addendum"),
    "rankCriterion": with_expr("_prepare_relevant_files", "task.requirements"),
    "rankFiles": with_expr("_prepare_relevant_files", "tree_structure"),
    "gradePaper": with_expr("_construct_grade_leaf_messages", "self.paper_md"),
    "gradeAddendum": with_expr("_construct_grade_leaf_messages", "self.joined_addendum"),
    "files": template(files.body),
    "filesResultAnalysis": template(files.orelse),
    "reproduceSh": with_expr("_construct_grade_leaf_messages", "self.reproduce_sh_content"),
    "reproduceLog": with_expr("_construct_grade_leaf_messages", "self.reproduce_log_content"),
    "parseSystem": with_expr("_parse_model_response", "score_instruction"),
    "scoreInstruction": {"binary": score.body.value, "continuous": score.orelse.value},
    "categoryQuestionFallback": constant(
        "_construct_grade_leaf_messages",
        lambda n: n.args[1] if isinstance(n, ast.Call) and ast.unparse(n.func) == "TASK_CATEGORY_QUESTIONS.get" and len(n.args) == 2 else None,
        "TASK_CATEGORY_QUESTIONS.get's default"),
    "noTouchExplanation": constant(
        "grade_leaf", lambda n: n.value if isinstance(n, ast.keyword) and n.arg == "explanation" else None,
        "the explanation of a Result Analysis leaf when reproduce.sh touched no file"),
    "noAddendum": constant(
        "__init__",
        lambda n: n.value if isinstance(n, ast.Assign) and [ast.unparse(t) for t in n.targets] == ["self.joined_addendum"] else None,
        "the text of a missing addendum"),
}
sys.stdout.write(json.dumps(out))
`;

function runPython(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "python3",
      ["-I", "-c", EXTRACT_SCRIPT, ...args],
      { timeout: PYTHON_TIMEOUT_MS, maxBuffer: 16 << 20, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT")
          reject(new Error("python3 is not on PATH: it is needed to read PaperBench's prompts (paperbench mode)"));
        else if (error.killed)
          reject(new Error(`python3 did not finish reading PaperBench's prompts within ${PYTHON_TIMEOUT_MS / 1000} s`));
        else
          reject(
            new Error(
              `python3 failed reading PaperBench's prompts: ${String(stderr).trim().split("\n").slice(-3).join(" ") || error.message}`,
            ),
          );
      },
    );
  });
}

async function readPrompts(srcDir: string): Promise<PaperbenchPrompts> {
  const pkg = packageDir(srcDir);
  const constantsPath = path.join(pkg, "judge", "constants.py");
  const tasksPath = path.join(pkg, "rubric", "tasks.py");
  const simplePath = path.join(pkg, "judge", "simple.py");
  for (const file of [constantsPath, tasksPath, simplePath]) {
    try {
      await fs.promises.access(file, fs.constants.R_OK);
    } catch {
      throw new Error(
        `PaperBench's source is missing or unreadable: ${file} (set PAPERBENCH_SRC_DIR to a folder holding paperbench/judge/constants.py)`,
      );
    }
  }
  const stdout = await runPython([constantsPath, tasksPath, simplePath]);
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new Error(`python3 printed no JSON reading ${constantsPath}`);
  }
  if (json && typeof json === "object" && "error" in json)
    throw new Error(`PaperBench's prompts: ${String((json as { error: unknown }).error)}`);
  const parsed = extractedPromptsSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `PaperBench's prompts read from ${constantsPath} have an unexpected shape: ${parsed.error.issues[0]?.message}`,
    );
  let commit: string | null = null;
  try {
    commit = (await fs.promises.readFile(path.join(path.dirname(pkg), "COMMIT"), "utf8")).trim() || null;
  } catch {
    commit = null;
  }
  return { commit, sourcePath: constantsPath, ...parsed.data };
}

const cache = new Map<string, { stamp: string; prompts: Promise<PaperbenchPrompts> }>();

/** The source files' sizes and times: an edited checkout is read again, an unchanged one is not. */
function sourceStamp(srcDir: string): string {
  const pkg = packageDir(srcDir);
  return ["judge/constants.py", "judge/simple.py", "rubric/tasks.py", "../COMMIT"]
    .map((f) => {
      try {
        const s = fs.statSync(path.join(pkg, f));
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return "-";
      }
    })
    .join("|");
}

/** PaperBench's prompts from `srcDir` (default: PAPERBENCH_SRC_DIR), read once per folder and version of its files. */
export function loadPaperbenchPrompts(srcDir: string = paperbenchSrcDir()): Promise<PaperbenchPrompts> {
  const dir = path.resolve(srcDir);
  const stamp = sourceStamp(dir);
  const hit = cache.get(dir);
  if (hit && hit.stamp === stamp) return hit.prompts;
  const prompts = readPrompts(dir);
  cache.set(dir, { stamp, prompts });
  // A failure is not kept: the next call tries again (python3 installed, path fixed).
  prompts.catch(() => {
    if (cache.get(dir)?.prompts === prompts) cache.delete(dir);
  });
  return prompts;
}

/** Whether paperbench mode can run, and if not why (for the configuration page). */
export async function paperbenchModeAvailability(
  srcDir: string = paperbenchSrcDir(),
): Promise<{ ok: true; commit: string | null; sourcePath: string } | { ok: false; reason: string }> {
  try {
    const prompts = await loadPaperbenchPrompts(srcDir);
    return { ok: true, commit: prompts.commit, sourcePath: prompts.sourcePath };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
