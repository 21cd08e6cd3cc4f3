/**
 * The speed budget (`npm run bench -- budget [--against <commit>] [--rounds N] [group …]`): the UI
 * and evaluation figures of this checkout beside the same figures of an earlier commit, measured
 * alternately in one run (per group: this, earlier, then earlier, this, …) so that the machine's
 * drift falls on both, and each printed beside its goal (`support/goals.ts`).
 *
 * The earlier commit is checked out in a git worktree under the system's temp folder and built
 * there once (kept for the next run: `git worktree list` shows it, `git worktree remove` drops
 * it). Its node_modules are hard links to this checkout's when the lock files and the patches to
 * packages (`patches/`) match, else its own `npm install`. This checkout is measured from its own
 * build (`npm run build` first). Each group runs in a process of its own, in its own tree, with
 * that tree's bench code, so a figure the earlier commit did not have yet is reported as such.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertBuilt } from "@/test/server/harness";
import { verdictOf } from "./support/goals";

export const BUDGET_GROUPS = ["editor-ui", "review-ui", "leaderboard", "evaluation"];

interface BudgetOptions {
  against: string;
  rounds: number;
  groups: string[];
}

function parseOptions(args: string[]): BudgetOptions {
  const opts: BudgetOptions = { against: "HEAD~1", rounds: 2, groups: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--against" || arg === "--rounds") {
      const value = args[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === "--against") opts.against = value;
      else {
        opts.rounds = Number(value);
        if (!Number.isInteger(opts.rounds) || opts.rounds < 1)
          throw new Error(`--rounds must be a whole number of at least 1, not ${value}`);
      }
    } else if (arg.startsWith("--")) throw new Error(`Unknown option ${arg}: use --against <commit> or --rounds N`);
    else opts.groups.push(arg);
  }
  if (opts.groups.length === 0) opts.groups = BUDGET_GROUPS;
  return opts;
}

function git(args: string[], cwd = process.cwd()): string {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Runs a command to its end with its output shown, or throws naming it. */
function runVisible(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: "" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} in ${cwd} failed (${result.status})`);
}

/**
 * What a tree's node_modules hold: its lock file and its patches to packages (applied on install).
 * Hard links would share patched files, so a tree with other patches installs its own.
 */
function packagesOf(tree: string): string {
  const patches = path.join(tree, "patches");
  const patchFiles = fs.existsSync(patches)
    ? fs
        .readdirSync(patches)
        .filter((f) => f.endsWith(".patch"))
        .sort()
    : [];
  return [
    fs.readFileSync(path.join(tree, "package-lock.json"), "utf8"),
    ...patchFiles.map((f) => `${f}\n${fs.readFileSync(path.join(patches, f), "utf8")}`),
  ].join("\n");
}

/** The earlier commit's worktree, with its packages and its build (made once, then reused). */
function preparedWorktree(sha: string): string {
  const root = process.cwd();
  const dir = path.join(os.tmpdir(), "rubric-studio-budget", sha);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    git(["worktree", "prune"]);
    git(["worktree", "add", "--detach", dir, sha]);
  }
  if (!fs.existsSync(path.join(dir, "node_modules"))) {
    if (packagesOf(root) === packagesOf(dir)) {
      // Hard links: seconds instead of an install. The packages are the same files; only the build
      // caches (.cache: the PGlite template, ESLint's) are the worktree's own.
      fs.mkdirSync(path.join(dir, "node_modules"));
      const entries = fs
        .readdirSync(path.join(root, "node_modules"))
        .filter((entry) => entry !== ".cache")
        .map((entry) => path.join(root, "node_modules", entry));
      runVisible("cp", ["-al", ...entries, path.join(dir, "node_modules")], root);
    } else {
      // npm install, not npm ci (as in .ci/run): the lock file lacks other platforms' binaries.
      console.log(`# ${sha.slice(0, 10)} has other packages: npm install in its worktree`);
      runVisible("npm", ["install", "--no-audit", "--no-fund"], dir);
    }
  }
  if (!fs.existsSync(path.join(dir, ".next", "BUILD_ID"))) {
    console.log(`# building ${sha.slice(0, 10)} in ${dir}`);
    runVisible("npm", ["run", "build"], dir);
  }
  return dir;
}

/** One bench group in one tree: the figures it printed (`BENCH name value unit`), its other lines shown with a prefix. */
function runGroup(tree: string, group: string, label: string): Promise<Map<string, { value: number; unit: string }>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(tree, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", "bench/run.ts", group],
      { cwd: tree, env: { ...process.env, NEXT_DIST_DIR: "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const figures = new Map<string, { value: number; unit: string }>();
    let pending = "";
    const onLine = (line: string) => {
      const m = /^BENCH (\S+) (\S+) (.*)$/.exec(line);
      if (m) figures.set(m[1], { value: Number(m[2]), unit: m[3] });
      console.log(`[${label}] ${line}`);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      lines.forEach(onLine);
    });
    child.stderr.on("data", (chunk: Buffer) => process.stderr.write(`[${label}] ${chunk.toString("utf8")}`));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (pending) onLine(pending);
      if (code === 2 && figures.size === 0) console.log(`[${label}] # the group ${group} does not exist there`);
      else if (code !== 0) console.log(`[${label}] # ${group} exited with ${code}`);
      resolve(figures);
    });
  });
}

/** The middle of the values (the mean of the two middle ones for an even count). */
function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function budgetFigures(args: string[]): Promise<void> {
  const opts = parseOptions(args);
  assertBuilt();
  const sha = git(["rev-parse", "--verify", `${opts.against}^{commit}`]);
  // A checkout with changes not committed is measured as it is: its label says so.
  const head =
    git(["rev-parse", "HEAD"]).slice(0, 10) +
    (git(["status", "--porcelain", "--untracked-files=no"]) ? "+changes" : "");
  console.log(
    `# budget: this checkout (${head}) against ${sha.slice(0, 10)} ${git(["log", "-1", "--format=%s", sha])}`,
  );
  const earlier = preparedWorktree(sha);
  const trees = [
    { label: "this", dir: process.cwd() },
    { label: "earlier", dir: earlier },
  ];
  const values = new Map<string, { unit: string; this: number[]; earlier: number[] }>();
  /** Groups that printed no figure (no browser, no build, a failure): said below the table, not left out silently. */
  const silent = new Set<string>();
  for (let round = 0; round < opts.rounds; round++) {
    for (const group of opts.groups) {
      // This, earlier; then earlier, this: a slow drift of the machine weighs on both alike.
      const order = round % 2 === 0 ? trees : [...trees].reverse();
      for (const tree of order) {
        console.log(`# round ${round + 1} of ${opts.rounds}: ${group} on ${tree.label}`);
        const figures = await runGroup(tree.dir, group, tree.label);
        if (figures.size === 0) silent.add(`${group} on ${tree.label}`);
        for (const [name, figure] of figures) {
          const entry = values.get(name) ?? { unit: figure.unit, this: [], earlier: [] };
          entry[tree.label as "this" | "earlier"].push(figure.value);
          values.set(name, entry);
        }
      }
    }
  }
  const rows = [...values].map(([name, v]) => {
    const now = v.this.length ? middle(v.this) : undefined;
    const before = v.earlier.length ? middle(v.earlier) : undefined;
    const fmt = (x: number | undefined) => (x === undefined ? "–" : `${Number(x.toPrecision(4))} ${v.unit}`);
    return [name, fmt(now), fmt(before), now === undefined ? "not measured here" : verdictOf(name, now, before)];
  });
  const header = ["figure", `this (${head})`, `earlier (${sha.slice(0, 10)})`, "verdict"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  console.log(`\n# speed budget, ${opts.rounds} round(s) each, alternating (middle values)`);
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join("  "));
  for (const what of silent) console.log(`# no figure from ${what}: its lines above say why`);
}
