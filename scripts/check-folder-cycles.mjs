#!/usr/bin/env node
/**
 * Folder-level import cycles, which dependency-cruiser cannot express (its `circular` rule sees
 * files): `lib/jobs` importing `lib/runner` while `lib/runner` imports `lib/jobs` is a cycle even
 * when no file cycle exists, and it means neither folder can be understood, moved or tested alone.
 *
 *   node scripts/check-folder-cycles.mjs lib                       fails (exit 1) on a cycle in lib/
 *   node scripts/check-folder-cycles.mjs lib --report-only server  and only counts server/'s
 *
 * Runs dependency-cruiser once with the project's config (so the same resolution as lint:layers),
 * collapses every production module to its folder (`lib/jobs/states.ts` → `lib/jobs`; files right
 * in `lib/` form `lib/*`), and finds the strongly connected components of the folder graph
 * (Tarjan). Tests and test helpers are left out: they may import any layer (ARCHITECTURE.md).
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const config = createRequire(import.meta.url)(path.join(root, ".dependency-cruiser.cjs"));
/** The one definition of a test file: the rule that keeps tests out of production. */
const TEST = new RegExp(config.forbidden.find((rule) => rule.name === "no-production-import-of-tests").to.path);

function parseArgs(argv) {
  const enforced = [];
  const reported = [];
  let target = enforced;
  for (const arg of argv) {
    if (arg === "--report-only") target = reported;
    else target.push(arg.replace(/\/+$/, ""));
  }
  if (enforced.length + reported.length === 0) {
    console.error("usage: check-folder-cycles.mjs <folder>... [--report-only <folder>...]");
    process.exit(2);
  }
  return { enforced, reported };
}

/** dependency-cruiser's JSON for the given folders (it exits non-zero on rule violations: lint:layers reports those). */
function cruise(folders) {
  const bin = path.join(root, "node_modules/.bin/depcruise");
  const run = spawnSync(
    process.execPath,
    [bin, ...folders, "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
    {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 1 << 30,
    },
  );
  try {
    return JSON.parse(run.stdout);
  } catch {
    console.error(`dependency-cruiser gave no JSON (exit ${run.status}):\n${run.stderr}`);
    process.exit(2);
  }
}

/** `lib/jobs/states.ts` → `lib/jobs`; `lib/text.ts` → `lib/*`; outside `top` → null. */
function folderOf(file, top) {
  if (!file.startsWith(`${top}/`) || TEST.test(file)) return null;
  const parts = file.slice(top.length + 1).split("/");
  return parts.length === 1 ? `${top}/*` : `${top}/${parts[0]}`;
}

/** Folder graph of `top`: folder → folder → the file edges behind it. */
function folderGraph(modules, top) {
  const graph = new Map();
  for (const mod of modules) {
    const from = folderOf(mod.source, top);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const dependency of mod.dependencies) {
      const to = folderOf(dependency.resolved, top);
      if (!to || to === from) continue;
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(`${mod.source} → ${dependency.resolved}`);
    }
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one folder: each is a cycle (or several). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  function visit(v) {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The shortest folder cycle inside a component (breadth-first from each member): the first thing to read. */
function shortestCycle(graph, component) {
  const members = new Set(component);
  let best = null;
  for (const start of component) {
    const previous = new Map([[start, null]]);
    const queue = [start];
    let closing = null;
    while (queue.length > 0 && !closing) {
      const v = queue.shift();
      for (const w of graph.get(v)?.keys() ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          closing = v;
          break;
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    if (!closing) continue;
    const path = [start];
    for (let v = closing; v !== start; v = previous.get(v)) path.splice(1, 0, v);
    if (!best || path.length < best.length) best = path;
  }
  return [...best, best[0]];
}

/**
 * A component's shortest cycle, then every folder edge inside it with the file imports behind it,
 * thinnest first: the edge with the fewest imports is usually the back edge to remove.
 */
function explain(graph, component) {
  const members = new Set(component);
  const lines = [
    `  cycle: ${shortestCycle(graph, component).join(" → ")}${component.length > 2 ? ` (folders in the knot: ${component.join(", ")})` : ""}`,
  ];
  const edges = component.flatMap((from) =>
    [...(graph.get(from) ?? [])].filter(([to]) => members.has(to)).map(([to, files]) => ({ from, to, files })),
  );
  edges.sort((a, b) => a.files.length - b.files.length || `${a.from}${a.to}`.localeCompare(`${b.from}${b.to}`));
  for (const { from, to, files } of edges) {
    lines.push(`    ${from} → ${to} (${files.length} import${files.length === 1 ? "" : "s"})`);
    for (const file of files) lines.push(`      ${file}`);
  }
  return lines.join("\n");
}

const { enforced, reported } = parseArgs(process.argv.slice(2));
const { modules } = cruise([...enforced, ...reported]);
let failed = false;
for (const top of enforced) {
  const graph = folderGraph(modules, top);
  const found = cycles(graph);
  if (found.length === 0) {
    console.log(`✔ no folder-level cycle in ${top}/ (${graph.size} folders)`);
    continue;
  }
  failed = true;
  console.error(
    `✘ ${found.length} folder-level cycle(s) in ${top}/: break each by moving what the back edge needs (see ARCHITECTURE.md, Layers)`,
  );
  for (const component of found) console.error(explain(graph, component));
}
for (const top of reported) {
  const graph = folderGraph(modules, top);
  const found = cycles(graph);
  const folders = found.reduce((n, component) => n + component.length, 0);
  console.log(
    `ℹ ${top}/ (report only): ${folders} of ${graph.size} folders in ${found.length} folder-level cycle(s)${found.length ? `: ${found.map((c) => c.join(", ")).join("; ")}` : ""}`,
  );
}
process.exit(failed ? 1 : 0);
