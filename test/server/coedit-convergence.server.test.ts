/**
 * Live co-editing against the real, built studio over HTTP (DESIGN.md, co-editing model): a
 * property-based test (fast-check) in which 8 signed-in clients — each the browser editor's own
 * model of the rubric (`RubricStore`), following the live feed — edit one rubric at once with random
 * delays: requirement edits of the same nodes (three-way merged), weights, creates, moves (some of
 * which would make cycles, some under deleted nodes), deletes of the ancestors of what others edit,
 * restores, undos, batches, imports, retries with the same client op id, and dropped feeds that
 * resume with `?since=` or Last-Event-ID. When everyone is done, every client's tree equals the
 * server's, the tree has one root, no cycle and no orphan, and every operation sent was either
 * applied (a revision, the same one for a retry) or refused with a reason (409): none lost, none a
 * server error. On PGlite (one studio), and on PostgreSQL with the clients split over two studio
 * instances (DATABASE_URL; required when CI=true).
 *
 * Each property runs every case it asks for, however slow the machine. FC_RUNS=<n> runs more cases;
 * FC_SEED=<seed> (and FC_PATH) replays one that failed (test/property.ts).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RubricOperation, SimpleOperation } from "@/lib/rubric/operations";
import { positionsForInsert } from "@/lib/rubric/positions";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import { rowsToTree, type NodeRow } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";
import { propertyParams } from "@/test/property";
import { CoEditor, OperationLedger } from "./coedit-client";
import {
  LiveFeed,
  api,
  postOperation,
  prepareDatabase,
  signIn,
  sleep,
  startStudio,
  waitFor,
  type FeedEvent,
  type PreparedDatabase,
  type Studio,
} from "./harness";

const CLIENTS = 8;

// ── The rubric every case starts from ───────────────────────────────────────

type Spec = [id: string, children?: Spec[]];
const SHAPE: Spec = [
  "n00",
  [
    ["n01", [["n02"], ["n03"], ["n04", [["n05"], ["n06"]]]]],
    ["n07", [["n08"], ["n09"], ["n10"]]],
    ["n11", [["n12", [["n13"], ["n14"]]]]],
  ],
];

function rubricJson(spec: Spec): RubricNode {
  const [id, children = []] = spec;
  return {
    id,
    requirements: `Requirement ${id}: the code implements alpha, then beta, then gamma, and reports delta.`,
    weight: 1,
    sub_tasks: children.map(rubricJson),
    task_category: children.length === 0 ? "Code Development" : null,
    finegrained_task_category: null,
  };
}
const INITIAL_RUBRIC = JSON.stringify(rubricJson(SHAPE), null, 4);

// ── Commands ─────────────────────────────────────────────────────────────────

type Command =
  | { t: "edit"; pick: number; how: "prepend" | "append" | "replace"; delay: number }
  | { t: "weight"; pick: number; w: number; delay: number }
  | { t: "create"; pick: number; at: number; delay: number }
  | { t: "move"; pick: number; to: number; at: number; delay: number }
  | { t: "cycle"; pick: number; to: number; delay: number }
  | { t: "delete"; pick: number; delay: number }
  | { t: "rawDelete"; pick: number; descendantFirst: boolean; delay: number }
  | { t: "rawCreate"; pick: number; delay: number }
  | { t: "moveUnderDeleted"; pick: number; to: number; delay: number }
  | { t: "restore"; pick: number; delay: number }
  | { t: "undo"; delay: number }
  | { t: "batch"; pick: number; to: number; w: number; delay: number }
  | { t: "retry"; delay: number }
  | { t: "drop"; ms: number; resume: "query" | "header"; delay: number }
  | { t: "import"; delay: number };

const delay = fc.integer({ min: 0, max: 40 });
const pick = fc.nat({ max: 1000 });
const hot = fc.nat({ max: 3 }); // edits go to a few leaves, so that several people type in one

function commandArb(client: number): fc.Arbitrary<Command> {
  const c = <T extends Command["t"]>(t: T) => fc.constant(t);
  const options: fc.WeightedArbitrary<Command>[] = [
    {
      weight: 6,
      arbitrary: fc.record({ t: c("edit"), pick: hot, how: fc.constantFrom("prepend", "append", "replace"), delay }),
    },
    { weight: 2, arbitrary: fc.record({ t: c("weight"), pick, w: fc.integer({ min: 0, max: 5 }), delay }) },
    { weight: 2, arbitrary: fc.record({ t: c("create"), pick, at: fc.nat({ max: 4 }), delay }) },
    { weight: 3, arbitrary: fc.record({ t: c("move"), pick, to: pick, at: fc.nat({ max: 4 }), delay }) },
    { weight: 2, arbitrary: fc.record({ t: c("cycle"), pick, to: pick, delay }) },
    { weight: 2, arbitrary: fc.record({ t: c("delete"), pick, delay }) },
    { weight: 1, arbitrary: fc.record({ t: c("rawDelete"), pick, descendantFirst: fc.boolean(), delay }) },
    { weight: 1, arbitrary: fc.record({ t: c("rawCreate"), pick, delay }) },
    { weight: 1, arbitrary: fc.record({ t: c("moveUnderDeleted"), pick, to: pick, delay }) },
    { weight: 2, arbitrary: fc.record({ t: c("restore"), pick, delay }) },
    { weight: 2, arbitrary: fc.record({ t: c("undo"), delay }) },
    { weight: 1, arbitrary: fc.record({ t: c("batch"), pick, to: pick, w: fc.integer({ min: 0, max: 5 }), delay }) },
    { weight: 2, arbitrary: fc.record({ t: c("retry"), delay }) },
    {
      weight: 2,
      arbitrary: fc.record({
        t: c("drop"),
        ms: fc.integer({ min: 0, max: 150 }),
        resume: fc.constantFrom("query", "header"),
        delay,
      }),
    },
  ];
  // One client (staff) sometimes replaces the whole rubric by an upload, as an author may.
  if (client === 0) options.push({ weight: 1, arbitrary: fc.record({ t: c("import"), delay }) });
  return fc.oneof(...options);
}

const scriptsArb = fc.tuple(
  ...Array.from({ length: CLIENTS }, (_, i) => fc.array(commandArb(i), { minLength: 2, maxLength: 16, size: "max" })),
);

// ── Picking nodes from what a client sees ───────────────────────────────────

const byNodeId = (a: NodeRow, b: NodeRow) =>
  a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : a.key < b.key ? -1 : 1;

function view(rows: readonly NodeRow[]) {
  const index = buildTreeIndex(rows);
  const sorted = [...index.byKey.values()].sort(byNodeId);
  const nonRoot = sorted.filter((r) => r.parentKey !== null);
  const leaves = sorted.filter((r) => index.isLeaf(r.key));
  const internal = nonRoot.filter((r) => !index.isLeaf(r.key));
  const at = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
  const positionAt = (parentKey: string, i: number, count = 1) => positionsForInsert(index, parentKey, i, count);
  return { index, sorted, nonRoot, leaves, internal, at, positionAt };
}

const newLeaf = (parentKey: string, position: string, nodeId: string) => ({
  key: crypto.randomUUID(),
  parentKey,
  position,
  nodeId,
  requirements: `Added as ${nodeId}.`,
  weight: 1,
  taskCategory: "Code Development" as string | null,
  finegrainedTaskCategory: null as string | null,
});

// ── One case ─────────────────────────────────────────────────────────────────

interface Env {
  studios: Studio[];
  /** One session per client, signed in on the studio the client talks to. */
  sessions: string[];
  staffIndexes: number[];
  authorEmails: string[];
}

interface Coverage {
  cases: number;
  sent: number;
  applied: number;
  refused: Record<string, number>;
  merged: number;
  localRefusals: number;
  drops: number;
  imports: number;
}

let paperNo = 0;

/** A new paper holding the initial rubric, with the author clients as its authors. */
async function newPaper(env: Env, label: string): Promise<{ paperId: string; revision: number }> {
  const paperId = `${label}-${process.pid}-${++paperNo}-${Math.random().toString(36).slice(2, 7)}`;
  const url = env.studios[0].url;
  const staff = env.sessions[env.staffIndexes[0]];
  const created = await api(url, staff, "POST", "/api/papers", { id: paperId, title: `Co-editing ${paperId}` });
  if (created.status !== 201) throw new Error(`creating ${paperId}: ${created.status} ${JSON.stringify(created.body)}`);
  const imported = await fetch(`${url}/api/papers/${paperId}/rubric`, {
    method: "PUT",
    headers: { cookie: staff, "content-type": "application/json" },
    body: INITIAL_RUBRIC,
  });
  const body = (await imported.json()) as { revision: number };
  if (imported.status !== 200) throw new Error(`importing into ${paperId}: ${imported.status} ${JSON.stringify(body)}`);
  for (const email of env.authorEmails) {
    const added = await api(url, staff, "POST", `/api/papers/${paperId}/members`, { email, role: "author" });
    if (added.status !== 201) throw new Error(`adding ${email}: ${added.status} ${JSON.stringify(added.body)}`);
  }
  return { paperId, revision: body.revision };
}

interface ServerRows {
  revision: number;
  nodes: NodeRow[];
}

const sortRows = (rows: readonly NodeRow[]) =>
  [...rows].sort((a, b) => (a.key < b.key ? -1 : 1)).map((r) => ({ ...r }));

/** One root, every parent live (no orphan), every node reaches the root (no cycle). */
function checkTreeShape(rows: readonly NodeRow[]): string[] {
  const problems: string[] = [];
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const roots = rows.filter((r) => r.parentKey === null);
  if (roots.length !== 1) problems.push(`${roots.length} roots`);
  for (const row of rows) {
    if (row.parentKey !== null && !byKey.has(row.parentKey))
      problems.push(`orphan ${row.nodeId} (${row.key}): parent ${row.parentKey} is not live`);
    let current: NodeRow | undefined = row;
    let steps = 0;
    while (current && current.parentKey !== null && steps <= rows.length) {
      current = byKey.get(current.parentKey);
      steps++;
    }
    if (steps > rows.length) problems.push(`cycle through ${row.nodeId} (${row.key})`);
  }
  return problems;
}

async function runCase(env: Env, label: string, scripts: Command[][], coverage: Coverage): Promise<void> {
  const { paperId, revision: startRevision } = await newPaper(env, label);
  const ledger = new OperationLedger();
  const problems: string[] = [];
  const studioOf = (i: number) => env.studios[i % env.studios.length];

  // Observers: one never-dropped feed per studio instance, the record of what the log says happened.
  const seen = env.studios.map(() => [] as FeedEvent[]);
  const deletedRoots = new Set<string>();
  const observers = env.studios.map(
    (studio, s) =>
      new LiveFeed({
        baseUrl: studio.url,
        cookie: env.sessions[env.staffIndexes[0]],
        paperId,
        reconnect: false,
        onProblem: (m) => problems.push(`observer ${s}: ${m}`),
        onOp: (event) => {
          seen[s].push(event);
          if (s !== 0) return;
          // What anyone could know was deleted: targets for restores and moves under deleted nodes.
          if (event.op === null) deletedRoots.clear();
          const ops = event.op?.kind === "batch" ? event.op.ops : event.op ? [event.op] : [];
          for (const op of ops) {
            if (op.kind === "delete") op.keys.forEach((k) => deletedRoots.add(k));
            if (op.kind === "restore") op.keys.forEach((k) => deletedRoots.delete(k));
          }
        },
      }),
  );
  await Promise.all(observers.map((o) => o.connect(startRevision)));

  const clients = env.sessions.map(
    (cookie, index) => new CoEditor({ index, baseUrl: studioOf(index).url, cookie, paperId, ledger, problems }),
  );
  const imports: Promise<void>[] = [];
  try {
    await Promise.all(clients.map((c) => c.open()));

    const runScript = async (client: CoEditor, index: number, script: Command[]) => {
      let created = 0;
      for (const cmd of script) {
        await sleep(cmd.delay);
        const v = view(client.rows);
        const submit = (op: RubricOperation, label: string) => client.store.submit(op, { label });
        switch (cmd.t) {
          case "edit": {
            const node = v.at(v.leaves, cmd.pick);
            if (!node) break;
            const mark = `[c${index}.${++created}]`;
            const text =
              cmd.how === "prepend"
                ? `${mark} ${node.requirements}`
                : cmd.how === "append"
                  ? `${node.requirements} ${mark}`
                  : `Rewritten by ${mark}.`;
            submit(
              {
                kind: "update",
                key: node.key,
                fields: { requirements: text },
                base: { requirements: node.requirements },
              },
              "Edit",
            );
            break;
          }
          case "weight": {
            const node = v.at(v.sorted, cmd.pick);
            if (node) submit({ kind: "update", key: node.key, fields: { weight: cmd.w } }, "Weight");
            break;
          }
          case "create": {
            const parent = v.at(v.sorted, cmd.pick);
            if (!parent) break;
            const [position] = v.positionAt(parent.key, cmd.at);
            submit({ kind: "create", nodes: [newLeaf(parent.key, position, `c${index}-${++created}`)] }, "Add");
            break;
          }
          case "move": {
            const node = v.at(v.nonRoot, cmd.pick);
            const parent = v.at(v.sorted, cmd.to);
            if (!node || !parent) break;
            const [position] = v.positionAt(parent.key, cmd.at);
            submit({ kind: "move", moves: [{ key: node.key, parentKey: parent.key, position }] }, "Move");
            break;
          }
          case "cycle": {
            // Under itself or one of its descendants: the editor refuses it locally, so it goes raw.
            const node = v.at(v.internal, cmd.pick);
            if (!node) break;
            const target = v.at(v.index.subtreeKeys(node.key), cmd.to)!;
            client.sendRaw({ kind: "move", moves: [{ key: node.key, parentKey: target, position: "a0" }] });
            break;
          }
          case "delete": {
            const node = v.at(v.internal.length ? v.internal : v.nonRoot, cmd.pick);
            if (node) submit({ kind: "delete", keys: [node.key] }, "Delete");
            break;
          }
          case "rawDelete": {
            // A multi-selection delete: a node and one of its descendants, in either order.
            const node = v.at(v.internal.length ? v.internal : v.nonRoot, cmd.pick);
            if (!node) break;
            const below = v.index.subtreeKeys(node.key).slice(1);
            const other = below.length ? below[cmd.pick % below.length] : null;
            const keys = other === null ? [node.key] : cmd.descendantFirst ? [other, node.key] : [node.key, other];
            client.sendRaw({ kind: "delete", keys });
            break;
          }
          case "rawCreate": {
            // A duplicated subtree: a group with one leaf.
            const parent = v.at(v.sorted, cmd.pick);
            if (!parent) break;
            const [position] = v.positionAt(parent.key, cmd.pick);
            const group = { ...newLeaf(parent.key, position, `c${index}-${++created}`), taskCategory: null };
            client.sendRaw({ kind: "create", nodes: [group, newLeaf(group.key, "a0", `c${index}-${++created}`)] });
            break;
          }
          case "moveUnderDeleted": {
            const node = v.at(v.nonRoot, cmd.pick);
            const target = v.at([...deletedRoots], cmd.to);
            if (node && target)
              client.sendRaw({ kind: "move", moves: [{ key: node.key, parentKey: target, position: "a0" }] });
            break;
          }
          case "restore": {
            const key = v.at([...deletedRoots], cmd.pick);
            if (key) submit({ kind: "restore", keys: [key] }, "Restore");
            break;
          }
          case "undo":
            client.store.undo();
            break;
          case "batch": {
            const a = v.at(v.sorted, cmd.pick);
            const b = v.at(v.nonRoot, cmd.to);
            const parent = v.at(v.sorted, cmd.pick + cmd.to);
            if (!a || !b || !parent) break;
            const ops: SimpleOperation[] = [
              { kind: "update", key: a.key, fields: { weight: cmd.w } },
              {
                kind: "move",
                moves: [{ key: b.key, parentKey: parent.key, position: v.positionAt(parent.key, cmd.w)[0] }],
              },
            ];
            client.sendRaw({ kind: "batch", ops });
            break;
          }
          case "retry":
            client.retryLastRaw();
            break;
          case "drop":
            coverage.drops++;
            client.dropFeed(cmd.ms, cmd.resume);
            break;
          case "import":
            coverage.imports++;
            imports.push(
              // A script's import: it replaces whatever the others have made of the rubric.
              fetch(`${client.opts.baseUrl}/api/papers/${paperId}/rubric?replace=true`, {
                method: "PUT",
                headers: { cookie: client.opts.cookie, "content-type": "application/json" },
                body: INITIAL_RUBRIC,
              }).then(async (res) => {
                const text = await res.text();
                if (res.status !== 200) problems.push(`client ${index}: the import answered ${res.status}: ${text}`);
              }),
            );
            break;
        }
      }
    };
    await Promise.all(clients.map((client, i) => runScript(client, i, scripts[i])));

    // Everyone stops: answers come back, dropped feeds reconnect, queues empty.
    await Promise.all(imports);
    await Promise.all(clients.map((c) => c.settle()));
    const server = await waitFor("the server's revision", async () => {
      const answer = await api<ServerRows>(
        env.studios[0].url,
        env.sessions[0],
        "GET",
        `/api/papers/${paperId}/rubric/nodes`,
      );
      return answer.status === 200 ? answer.body : undefined;
    });
    const last = server.revision;
    try {
      await waitFor(
        "every client and observer at the last revision",
        () =>
          clients.every((c) => {
            const s = c.store.getSnapshot();
            return s.revision === last && s.pendingCount === 0;
          }) && observers.every((o) => o.lastEventId === last || (last === startRevision && o.lastEventId === -1)),
      );
    } catch (err) {
      const states = clients.map(
        (c, i) =>
          `client ${i}: revision ${c.store.getSnapshot().revision}, pending ${c.store.getSnapshot().pendingCount}, feed ${c.feed.connected ? "up" : "down"}`,
      );
      throw new Error(
        `${(err as Error).message} (server at ${last}; observers at ${observers.map((o) => o.lastEventId).join(", ")})\n${states.join("\n")}`,
      );
    }
    // No one wrote after `server` was read: it is the final state.
    const tree = await api<{ revision: number; tree: RubricNode | null }>(
      env.studios[0].url,
      env.sessions[0],
      "GET",
      `/api/papers/${paperId}/rubric`,
    );

    // ── The checks ──
    expect(problems, "feed problems").toEqual([]);
    expect(checkTreeShape(server.nodes), "the server's tree").toEqual([]);
    expect(tree.status).toBe(200);
    expect(tree.body.revision).toBe(last);
    expect(tree.body.tree, "GET /rubric and GET /rubric/nodes agree").toEqual(rowsToTree(server.nodes));
    for (const [i, client] of clients.entries()) {
      expect(sortRows(client.rows), `client ${i}'s rows`).toEqual(sortRows(server.nodes));
      expect(rowsToTree(client.rows), `client ${i}'s tree`).toEqual(tree.body.tree);
    }

    // Every request answered: applied with a revision, or refused (409) with a reason.
    const bad = ledger.sent.filter(
      (s) =>
        !(s.status === 200 && Number.isInteger(s.revision) && s.revision! > startRevision) &&
        !(s.status === 409 && s.code === "operation_refused" && !!s.message && !!s.reason),
    );
    expect(
      bad.map(
        (s) =>
          `client ${s.client} ${s.via} ${s.op.kind} attempt ${s.attempt}: ${s.status} ${s.code ?? ""} ${s.message ?? ""}`,
      ),
      "unanswered, failed or unexplained requests",
    ).toEqual([]);
    // Idempotent by client op id: every attempt applied is answered with the one revision, and an
    // attempt sent after an applied one was answered (so, after it was committed) is not refused.
    const appliedAt = new Map<string, number>();
    const appliedAnswered = new Map<string, number>();
    for (const s of ledger.sent) {
      if (s.status !== 200) continue;
      const first = appliedAt.get(s.clientOpId);
      if (first !== undefined)
        expect({ retry: s.clientOpId, revision: s.revision }).toEqual({ retry: s.clientOpId, revision: first });
      else appliedAt.set(s.clientOpId, s.revision!);
      appliedAnswered.set(s.clientOpId, Math.min(appliedAnswered.get(s.clientOpId) ?? Infinity, s.answeredAt!));
    }
    const refusedRetries = ledger.sent.filter(
      (s) => s.status === 409 && s.sentAt > (appliedAnswered.get(s.clientOpId) ?? Infinity),
    );
    expect(
      refusedRetries.map(
        (s) =>
          `client ${s.client}: a retry of ${s.op.kind} ${s.clientOpId}, applied at revision ${appliedAt.get(s.clientOpId)}, was refused: ${s.message}`,
      ),
      "retries of applied operations",
    ).toEqual([]);
    // The log (as every observer saw it): each revision once, in order, no gap; each applied
    // operation at its revision; nothing refused in it.
    for (const [s, events] of seen.entries()) {
      expect(
        events.map((e) => e.revision),
        `observer ${s}'s revisions`,
      ).toEqual(Array.from({ length: last - startRevision }, (_, i) => startRevision + 1 + i));
      const logged = new Map(events.filter((e) => e.clientOpId !== null).map((e) => [e.clientOpId!, e.revision]));
      expect(logged, `observer ${s}: the log holds exactly the applied operations`).toEqual(appliedAt);
    }
    const revisions = [...appliedAt.values()];
    expect(new Set(revisions).size).toBe(revisions.length);

    coverage.cases++;
    coverage.sent += ledger.sent.length;
    coverage.applied += appliedAt.size;
    const loggedOps = new Map(seen[0].map((e) => [e.clientOpId, e.op]));
    for (const s of ledger.sent) {
      // A text edit the server merged with someone else's: the log holds another text than was sent.
      const logged = loggedOps.get(s.clientOpId);
      if (s.status === 200 && s.attempt === 1 && s.op.kind === "update" && s.op.base && logged?.kind === "update") {
        if (logged.fields.requirements !== s.op.fields.requirements) coverage.merged++;
      }
    }
    for (const s of ledger.sent)
      if (s.status === 409) coverage.refused[s.reason!] = (coverage.refused[s.reason!] ?? 0) + 1;
    coverage.localRefusals +=
      clients.reduce((n, c) => n + c.refusals.length, 0) -
      ledger.sent.filter((s) => s.via === "store" && s.status === 409).length;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(observers.map((o) => o.close()));
  }
}

// ── Sequential do / undo / redo ─────────────────────────────────────────────

type SeqOp =
  | { t: "text"; pick: number }
  | { t: "weight"; pick: number; w: number }
  | { t: "create"; pick: number; size: number }
  | { t: "move"; pick: number; to: number }
  | { t: "delete"; picks: number[] }
  | { t: "batch"; a: SeqOp; b: SeqOp };

const seqLeaf: fc.Arbitrary<SeqOp> = fc.oneof(
  fc.record({ t: fc.constant("text" as const), pick }),
  fc.record({ t: fc.constant("weight" as const), pick, w: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ t: fc.constant("create" as const), pick, size: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant("move" as const), pick, to: pick }),
  fc.record({ t: fc.constant("delete" as const), picks: fc.array(pick, { minLength: 1, maxLength: 3 }) }),
);
const seqOpArb: fc.Arbitrary<SeqOp> = fc.oneof(
  { weight: 5, arbitrary: seqLeaf },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("batch" as const), a: seqLeaf, b: seqLeaf }) },
);

/** The operation for `spec` on these rows (a move that would make a cycle is left for the server to refuse). */
function seqOperation(rows: readonly NodeRow[], spec: SeqOp): RubricOperation | null {
  const v = view(rows);
  switch (spec.t) {
    case "text": {
      const node = v.at(v.nonRoot, spec.pick)!;
      return {
        kind: "update",
        key: node.key,
        fields: { requirements: `${node.requirements} (edited)` },
        base: { requirements: node.requirements },
      };
    }
    case "weight":
      return { kind: "update", key: v.at(v.sorted, spec.pick)!.key, fields: { weight: spec.w } };
    case "create": {
      const parent = v.at(v.sorted, spec.pick)!;
      const nodes = [newLeaf(parent.key, v.positionAt(parent.key, spec.pick)[0], `seq-${spec.pick}`)];
      for (let i = 1; i < spec.size; i++) nodes.push(newLeaf(nodes[0].key, `a${i}`, `seq-${spec.pick}-${i}`));
      return { kind: "create", nodes };
    }
    case "move": {
      const node = v.at(v.nonRoot, spec.pick)!;
      const parent = v.at(v.sorted, spec.to)!;
      return {
        kind: "move",
        moves: [{ key: node.key, parentKey: parent.key, position: v.positionAt(parent.key, spec.to)[0] }],
      };
    }
    case "delete":
      return { kind: "delete", keys: [...new Set(spec.picks.map((p) => v.at(v.nonRoot, p)!.key))] };
    case "batch": {
      const a = seqOperation(rows, spec.a) as SimpleOperation;
      const b = seqOperation(rows, spec.b) as SimpleOperation;
      return { kind: "batch", ops: [a, b] };
    }
  }
}

// ── Suites ───────────────────────────────────────────────────────────────────

function coEditingSuite(kind: "pglite" | "postgres") {
  const instances = kind === "postgres" ? 2 : 1;
  describe(`live co-editing on ${kind} (${instances} studio instance${instances > 1 ? "s" : ""}, ${CLIENTS} clients)`, () => {
    let db: PreparedDatabase | undefined;
    const env: Env = { studios: [], sessions: [], staffIndexes: [], authorEmails: [] };

    beforeAll(async () => {
      db = await prepareDatabase(kind, CLIENTS, `coedit-${kind}`);
      for (let i = 0; i < instances; i++) env.studios.push(await startStudio(db.env));
      env.sessions = await Promise.all(
        db.users.map((u, i) => signIn(env.studios[i % instances].url, u.email, u.password)),
      );
      env.staffIndexes = db.users.flatMap((u, i) => (u.staff ? [i] : []));
      env.authorEmails = db.users.filter((u) => !u.staff).map((u) => u.email);
    });

    afterAll(async () => {
      await Promise.all(env.studios.map((s) => s.stop()));
      await db?.drop();
    });

    it("every client converges on the server's tree; every operation applied or refused with a reason", async () => {
      const coverage: Coverage = {
        cases: 0,
        sent: 0,
        applied: 0,
        refused: {},
        merged: 0,
        localRefusals: 0,
        drops: 0,
        imports: 0,
      };
      await fc.assert(
        fc.asyncProperty(scriptsArb, (scripts) => runCase(env, `coedit-${kind}`, scripts, coverage)),
        // A failure shrinks (each try is a new case on a new paper) until this limit, then reports
        // its seed before the test's own timeout (vitest.server.config.ts); the cases run in ~15 s.
        propertyParams({ numRuns: kind === "pglite" ? 6 : 5, interruptAfterTimeLimit: 240_000 }),
      );
      console.log(`[${kind}] ${JSON.stringify(coverage)}`);
      expect(coverage.applied).toBeGreaterThan(0);
    });

    it("two people typing in one requirement both keep their words", async () => {
      const { paperId } = await newPaper(env, `typing-${kind}`);
      const [a, b] = [env.studios[0], env.studios[instances - 1]];
      const nodes = await api<ServerRows>(a.url, env.sessions[0], "GET", `/api/papers/${paperId}/rubric/nodes`);
      const leaf = view(nodes.body.nodes).leaves[0];
      const base = leaf.requirements;
      const [first, second] = await Promise.all([
        postOperation(a.url, env.sessions[0], paperId, {
          clientOpId: crypto.randomUUID(),
          baseRevision: nodes.body.revision,
          op: {
            kind: "update",
            key: leaf.key,
            fields: { requirements: `FIRST ${base}` },
            base: { requirements: base },
          },
        }),
        postOperation(b.url, env.sessions[1], paperId, {
          clientOpId: crypto.randomUUID(),
          baseRevision: nodes.body.revision,
          op: {
            kind: "update",
            key: leaf.key,
            fields: { requirements: `${base} SECOND` },
            base: { requirements: base },
          },
        }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const after = await api<ServerRows>(a.url, env.sessions[0], "GET", `/api/papers/${paperId}/rubric/nodes`);
      expect(after.body.nodes.find((n) => n.key === leaf.key)!.requirements).toBe(`FIRST ${base} SECOND`);
    });

    it("the inverse the server hands back undoes an operation right after it, and redoes it", async () => {
      const url = env.studios[0].url;
      const cookie = env.sessions[0];
      const state = async (paperId: string) => {
        const answer = await api<ServerRows>(url, cookie, "GET", `/api/papers/${paperId}/rubric/nodes`);
        expect(checkTreeShape(answer.body.nodes)).toEqual([]);
        return answer.body;
      };
      await fc.assert(
        fc.asyncProperty(seqOpArb, async (spec) => {
          const { paperId } = await newPaper(env, `undo-${kind}`);
          const before = await state(paperId);
          const op = seqOperation(before.nodes, spec)!;
          const send = (o: RubricOperation, rev: number) =>
            postOperation(url, cookie, paperId, { clientOpId: crypto.randomUUID(), baseRevision: rev, op: o });
          const done = await send(op, before.revision);
          if (done.status === 409) {
            // Only a move into its own subtree, or a batch whose second half acts on what its first
            // half deleted, may be refused here; nothing changed.
            expect(["cycle", "node_deleted"]).toContain(done.body.error?.details?.[0]?.reason);
            expect(sortRows((await state(paperId)).nodes)).toEqual(sortRows(before.nodes));
            return;
          }
          expect(done.status, JSON.stringify(done.body)).toBe(200);
          const after = await state(paperId);
          const inverse = (done.body as { inverse: RubricOperation }).inverse;
          const undone = await send(inverse, after.revision);
          expect({ status: undone.status, body: undone.body, inverse }).toMatchObject({ status: 200 });
          expect(sortRows((await state(paperId)).nodes), "undone").toEqual(sortRows(before.nodes));
          const redone = await send((undone.body as { inverse: RubricOperation }).inverse, after.revision + 1);
          expect({ status: redone.status, body: redone.body }).toMatchObject({ status: 200 });
          expect(sortRows((await state(paperId)).nodes), "redone").toEqual(sortRows(after.nodes));
        }),
        propertyParams({ numRuns: 25, interruptAfterTimeLimit: 240_000 }),
      );
    });
  });
}

coEditingSuite("pglite");
if (process.env.DATABASE_URL) coEditingSuite("postgres");
else if (process.env.CI === "true") {
  describe("live co-editing on postgres", () => {
    it("runs in CI (DATABASE_URL must be set)", () => {
      throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL co-editing tests cannot run");
    });
  });
} else describe.skip("live co-editing on postgres (set DATABASE_URL to run)", () => it("needs DATABASE_URL", () => {}));
