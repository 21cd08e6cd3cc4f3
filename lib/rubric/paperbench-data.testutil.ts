/**
 * Test-only access to the real PaperBench data (never copied into the repository):
 * `PAPERBENCH_DATA_DIR`, default `../shared/paperbench` from the project root.
 * Tests that need it skip when it is missing on a developer machine, and fail in CI (CI=true).
 */
import fs from "node:fs";
import path from "node:path";

export const PAPERBENCH_DATA_DIR =
  process.env.PAPERBENCH_DATA_DIR ?? path.resolve(process.cwd(), "../shared/paperbench");

export const hasPaperBenchData = fs.existsSync(path.join(PAPERBENCH_DATA_DIR, "papers"));

/** Skip data tests only off CI: in CI missing data must fail the run. */
export const skipWithoutData = !hasPaperBenchData && process.env.CI !== "true";

/**
 * First line of a test that needs the data: in CI, where such tests run rather than skip, a
 * missing folder fails with this message instead of a file error further on.
 */
export function requirePaperBenchData(): void {
  if (!hasPaperBenchData) {
    throw new Error(
      `The PaperBench data is missing: no ${path.join(PAPERBENCH_DATA_DIR, "papers")} (set PAPERBENCH_DATA_DIR; .ci/run uses ../shared/paperbench)`,
    );
  }
}

/** The 20 papers of the `all` split (ids only; the data stays outside the repository). */
export const ALL_PAPERS = [
  "adaptive-pruning",
  "all-in-one",
  "bam",
  "bbox",
  "bridging-data-gaps",
  "fre",
  "ftrl",
  "lbcs",
  "lca-on-the-line",
  "mechanistic-understanding",
  "pinn",
  "rice",
  "robust-clip",
  "sample-specific-masks",
  "sapg",
  "sequential-neural-score-estimation",
  "stay-on-topic-with-classifier-free-guidance",
  "stochastic-interpolants",
  "test-time-model-adaptation",
  "what-will-my-model-forget",
] as const;

export function paperFile(paper: string, file: string): string {
  return path.join(PAPERBENCH_DATA_DIR, "papers", paper, file);
}

export function readPaperBuffer(paper: string, file: string): Buffer {
  return fs.readFileSync(paperFile(paper, file));
}

export function readPaperText(paper: string, file: string): string {
  return fs.readFileSync(paperFile(paper, file), "utf8");
}

export function readSplit(name: string): string[] {
  return fs
    .readFileSync(path.join(PAPERBENCH_DATA_DIR, "splits", `${name}.txt`), "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
}
