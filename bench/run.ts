/**
 * Benchmarks (`npm run bench`): each figure is printed as `BENCH <name> <value> <unit>`.
 * Needs the PaperBench data (PAPERBENCH_DATA_DIR), a PostgreSQL server (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres, where a scratch database is created and dropped) and
 * a built studio (`npm run build`) for the start-up figure, the editor's UI figures (measured in
 * Debian's Chromium, `bench/editor-ui.ts`), the live co-editing figures (`bench/coedit.ts`) and the
 * server's memory while oversized bodies are refused (`bench/oversized-body.ts`).
 */
import path from "node:path";
import type { DbHandle } from "@/db/client";
import { exportRubricJson } from "@/server/papers/export";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { ALL_PAPERS, PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import type { RubricOperation } from "@/lib/rubric/operations";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import { openTestDatabase } from "@/test/databases";
import { coldStartFigures } from "./cold-start";
import { coeditFigures } from "./coedit";
import { domainFigures } from "./domain";
import { editorUiFigures } from "./editor-ui";
import { reviewUiFigures } from "./review-ui";
import { evaluationFigures } from "./evaluation";
import { judgeFigures } from "./judge";
import { leaderboardFigures } from "./leaderboard";
import { leaderboardUpdateFigures } from "./leaderboard-update";
import { liveResyncFigures } from "./live-resync";
import { oversizedBodyFigures } from "./oversized-body";
import { runnerFigures } from "./runner";
import { median, report } from "./support/figures";

async function importAll20(handle: DbHandle): Promise<{ seconds: number; nodes: number }> {
  // Files are read before the clock starts: the figure is the studio's work, not the disk's.
  const folders = ALL_PAPERS.map((p) => readPaperFolder(path.join(PAPERBENCH_DATA_DIR, "papers", p)));
  const started = performance.now();
  let nodes = 0;
  for (const { files, folderName } of folders) {
    nodes += (await importPaperFolder(handle, { files, folderName, userId: null, source: "bench" })).stats.nodes;
  }
  return { seconds: (performance.now() - started) / 1000, nodes };
}

async function exportPinnMs(handle: DbHandle): Promise<number> {
  await exportRubricJson(handle, "pinn"); // warm-up
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    await exportRubricJson(handle, "pinn");
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * Server time to move a 500-node subtree inside pinn to another parent (and back). pinn has no
 * subtree of exactly 500 nodes, so one is added first: a node with 499 leaves in 20 groups.
 */
async function moveSubtreeMs(handle: DbHandle): Promise<number> {
  const rubric = (await getRubricByPaperId(handle.db, "pinn"))!;
  const index = buildTreeIndex(await getLiveNodeRows(handle.db, rubric.id));
  const root = index.root!;
  const [home, away] = index.children(root.key);
  const node = (parentKey: string, i: number) => {
    const key = crypto.randomUUID();
    return {
      key,
      parentKey,
      position: `a${i}`,
      nodeId: key,
      requirements: `Bench node ${i}`,
      weight: 1,
      taskCategory: null as string | null,
      finegrainedTaskCategory: null,
    };
  };
  const top = node(home.key, 0);
  const nodes = [top];
  for (let g = 0; nodes.length < 500; g++) {
    const group = node(top.key, g);
    nodes.push(group);
    for (let l = 0; l < 24 && nodes.length < 500; l++)
      nodes.push({ ...node(group.key, l), taskCategory: "Code Development" });
  }
  let n = 0;
  const apply = (op: RubricOperation) =>
    applyRubricOperation(handle, {
      paperId: "pinn",
      userId: null,
      request: { clientOpId: `bench-${Date.now()}-${n++}`, baseRevision: 0, op },
    });
  await apply({ kind: "create", nodes });
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const parentKey = i % 2 === 0 ? away.key : home.key;
    const started = performance.now();
    await apply({ kind: "move", moves: [{ key: top.key, parentKey, position: "a0" }] });
    if (i > 0) times.push(performance.now() - started); // the first is a warm-up
  }
  return median(times);
}

async function databaseFigures() {
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres";
  const figures = {
    pglite: { import: "import_all_20_pglite", export: "export_pinn_ms", move: "editor_move_500_subtree_ms" },
    postgres: { import: "import_all_20_pg", export: "export_pinn_pg_ms", move: "editor_move_500_subtree_pg_ms" },
  };
  for (const kind of ["pglite", "postgres"] as const) {
    const handle = await openTestDatabase(kind);
    try {
      const { seconds, nodes } = await importAll20(handle);
      console.log(`# ${kind}: imported ${nodes} nodes`);
      report(figures[kind].import, seconds, "s");
      report(figures[kind].export, await exportPinnMs(handle), "ms");
      report(figures[kind].move, await moveSubtreeMs(handle), "ms");
    } finally {
      await handle.close();
    }
  }
}

// `npm run bench` runs every group; `npm run bench -- editor-ui cold-start` only those named;
// `npm run bench -- budget …` compares figures with an earlier commit's (bench/budget.ts).
const groups: Record<string, () => Promise<void>> = {
  domain: domainFigures,
  database: databaseFigures,
  "cold-start": coldStartFigures,
  "editor-ui": editorUiFigures,
  coedit: coeditFigures,
  leaderboard: leaderboardFigures,
  "leaderboard-update": leaderboardUpdateFigures,
  "oversized-body": oversizedBodyFigures,
  "review-ui": reviewUiFigures,
  runner: runnerFigures,
  judge: judgeFigures,
  evaluation: evaluationFigures,
  "live-resync": liveResyncFigures,
};
const chosen = process.argv.slice(2);
if (chosen[0] === "budget") {
  const { budgetFigures } = await import("./budget");
  await budgetFigures(chosen.slice(1));
  process.exit(0);
}
const unknown = chosen.filter((name) => !(name in groups));
if (unknown.length > 0) {
  console.error(`Unknown benchmark group ${unknown.join(", ")}: choose from ${Object.keys(groups).join(", ")}`);
  process.exit(2);
}
for (const [name, run] of Object.entries(groups)) if (chosen.length === 0 || chosen.includes(name)) await run();
