import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClientError } from "@/components/api/client";
import type { RubricOperation } from "@/lib/rubric/operations";
import { RubricStore } from "./rubric-store";
import { restoreStrandedEdit } from "./restore-stranded-edit";
import type { StrandedEdit } from "./rubric-live-events";
import type { NodesResponse } from "./rubric-store-types";
import { K, ROWS, row } from "./rows.testutil";

interface Call {
  url: string;
  body: { clientOpId: string; baseRevision: number; op: RubricOperation } | null;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** A fetch whose answers the test gives one by one; GET /nodes answers from `server` at once. */
function fakeServer(initial: NodesResponse) {
  const server = { ...initial, nodes: [...initial.nodes] };
  const calls: Call[] = [];
  const fetchImpl = vi.fn((url: string, init?: RequestInit) => {
    if (url.endsWith("/nodes")) return Promise.resolve(structuredClone(server));
    return new Promise((resolve, reject) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : null, resolve, reject });
    });
  }) as unknown as typeof import("@/components/api/client").fetchJson;
  return { server, calls, fetchImpl };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

async function setup(initial: Partial<NodesResponse> = {}) {
  const fake = fakeServer({ rubricId: "r1", revision: 5, canEdit: true, nodes: ROWS, dismissals: [], ...initial });
  const refused: string[] = [];
  const store = new RubricStore({
    paperId: "p1",
    canEdit: true,
    fetchImpl: fake.fetchImpl,
    onRefused: (m) => refused.push(m),
  });
  await store.load();
  return { store, refused, ...fake };
}

const text = (store: RubricStore, n: number) => store.getSnapshot().rows.find((r) => r.key === K(n))?.requirements;

afterEach(() => {
  vi.useRealTimers();
});

describe("RubricStore", () => {
  it("loads the rows and shows a change at once, then confirms it", async () => {
    const { store, calls } = await setup();
    expect(store.getSnapshot()).toMatchObject({ status: "ready", revision: 5, pendingCount: 0 });
    const before = store.getSnapshot().rows;

    const res = store.submit({ kind: "update", key: K(2), fields: { requirements: "Edited" } }, { label: "Edit" });
    expect(res.ok).toBe(true);
    expect(text(store, 2)).toBe("Edited");
    expect(store.getSnapshot().pendingCount).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({ baseRevision: 5, op: { kind: "update", key: K(2) } });

    const shown = store.getSnapshot().rows;
    calls[0].resolve({ revision: 6, inverse: { kind: "update", key: K(2), fields: { requirements: "Node 2" } } });
    await flush();
    expect(store.getSnapshot()).toMatchObject({ revision: 6, pendingCount: 0, canUndo: true });
    // Confirming does not change what is shown (no re-derivation).
    expect(store.getSnapshot().rows).toBe(shown);
    expect(before).not.toBe(shown);
  });

  it("sends changes one at a time, in order, each on the revision before it", async () => {
    const { store, calls } = await setup();
    store.submit({ kind: "update", key: K(2), fields: { weight: 2 } }, { label: "a" });
    store.submit({ kind: "update", key: K(3), fields: { weight: 3 } }, { label: "b" });
    expect(calls).toHaveLength(1);
    expect(store.getSnapshot().pendingCount).toBe(2);
    calls[0].resolve({ revision: 6, inverse: { kind: "update", key: K(2), fields: { weight: 1 } } });
    await flush();
    expect(calls).toHaveLength(2);
    expect(calls[1].body).toMatchObject({ baseRevision: 6, op: { key: K(3) } });
    calls[1].resolve({ revision: 7, inverse: { kind: "update", key: K(3), fields: { weight: 1 } } });
    await flush();
    expect(store.getSnapshot()).toMatchObject({ revision: 7, pendingCount: 0 });
  });

  it("rolls back a refused change and says why; a 409 reloads the rows", async () => {
    const { store, calls, refused, fetchImpl } = await setup();
    store.submit({ kind: "move", moves: [{ key: K(2), parentKey: K(3), position: "a0" }] }, { label: "Move" });
    expect(store.getSnapshot().rows.find((r) => r.key === K(2))?.parentKey).toBe(K(3));
    calls[0].reject(new ApiClientError(409, "operation_refused", "Cannot move a node under its own subtree"));
    await flush();
    expect(refused).toEqual(["Cannot move a node under its own subtree"]);
    expect(store.getSnapshot().rows.find((r) => r.key === K(2))?.parentKey).toBe(K(1));
    expect(store.getSnapshot().pendingCount).toBe(0);
    expect(vi.mocked(fetchImpl).mock.calls.filter(([u]) => String(u).endsWith("/nodes"))).toHaveLength(2);
  });

  it("keeps later changes when an earlier one is refused, and drops those that depended on it", async () => {
    const { store, calls, refused } = await setup();
    const child = row(4, 2, "a0");
    store.submit({ kind: "create", nodes: [child] }, { label: "Add" });
    store.submit({ kind: "update", key: K(4), fields: { requirements: "On the new node" } }, { label: "Edit new" });
    store.submit({ kind: "update", key: K(3), fields: { requirements: "Unrelated" } }, { label: "Edit other" });
    calls[0].reject(new ApiClientError(422, "bad_request", "Invalid node"));
    await flush();
    expect(refused[0]).toBe("Invalid node");
    expect(refused).toHaveLength(2); // the edit of the node that no longer exists
    expect(text(store, 4)).toBeUndefined();
    expect(text(store, 3)).toBe("Unrelated");
    expect(store.getSnapshot().pendingCount).toBe(1);
    expect(calls[1].body?.op).toMatchObject({ key: K(3) });
  });

  it("refuses locally what cannot apply, without sending it", async () => {
    const { store, calls, refused } = await setup();
    const res = store.submit({ kind: "delete", keys: [K(99)] }, { label: "Delete" });
    expect(res.ok).toBe(false);
    expect(calls).toHaveLength(0);
    expect(refused).toHaveLength(1);
  });

  it("undoes with the server's inverse and redoes with the inverse of that; a new change clears redo", async () => {
    const { store, calls } = await setup();
    store.submit({ kind: "update", key: K(2), fields: { requirements: "v2" } }, { label: "Edit" });
    calls[0].resolve({ revision: 6, inverse: { kind: "update", key: K(2), fields: { requirements: "Node 2" } } });
    await flush();

    store.undo();
    expect(text(store, 2)).toBe("Node 2");
    expect(calls[1].body?.op).toEqual({ kind: "update", key: K(2), fields: { requirements: "Node 2" } });
    calls[1].resolve({ revision: 7, inverse: { kind: "update", key: K(2), fields: { requirements: "v2" } } });
    await flush();
    expect(store.getSnapshot()).toMatchObject({ canUndo: false, canRedo: true });

    store.redo();
    expect(text(store, 2)).toBe("v2");
    expect(calls[2].body?.op).toEqual({ kind: "update", key: K(2), fields: { requirements: "v2" } });
    calls[2].resolve({ revision: 8, inverse: { kind: "update", key: K(2), fields: { requirements: "Node 2" } } });
    await flush();
    expect(store.getSnapshot()).toMatchObject({ canUndo: true, canRedo: false });

    store.undo();
    calls[3].resolve({ revision: 9, inverse: { kind: "update", key: K(2), fields: { requirements: "v2" } } });
    await flush();
    expect(store.getSnapshot().canRedo).toBe(true);
    store.submit({ kind: "update", key: K(3), fields: { weight: 4 } }, { label: "Weight" });
    expect(store.getSnapshot().canRedo).toBe(false);
  });

  it("an undo pressed while a change is still being sent undoes that change once it is confirmed", async () => {
    const { store, calls } = await setup();
    store.submit({ kind: "update", key: K(2), fields: { requirements: "typed" } }, { label: "Edit" });
    store.undo();
    expect(store.getSnapshot().pendingCount).toBe(2);
    calls[0].resolve({ revision: 6, inverse: { kind: "update", key: K(2), fields: { requirements: "Node 2" } } });
    await flush();
    expect(calls[1].body?.op).toEqual({ kind: "update", key: K(2), fields: { requirements: "Node 2" } });
    expect(text(store, 2)).toBe("Node 2");
  });

  it("undoes one given change (a toast's Undo) even when others came after it", async () => {
    const { store, calls } = await setup();
    const del = store.submit({ kind: "delete", keys: [K(3)] }, { label: "Delete" });
    calls[0].resolve({ revision: 6, inverse: { kind: "restore", keys: [K(3)] } });
    await flush();
    store.submit({ kind: "update", key: K(2), fields: { weight: 2 } }, { label: "Weight" });
    calls[1].resolve({ revision: 7, inverse: { kind: "update", key: K(2), fields: { weight: 1 } } });
    await flush();
    if (!del.ok) throw new Error("unreachable");
    store.undoChange(del.id);
    expect(calls[2].body?.op).toEqual({ kind: "restore", keys: [K(3)] });
  });

  it("waits for the server on a restore, then reloads the rows", async () => {
    const { store, calls, server } = await setup();
    store.submit({ kind: "delete", keys: [K(3)] }, { label: "Delete" });
    expect(text(store, 3)).toBeUndefined();
    server.nodes = ROWS.filter((r) => r.key !== K(3));
    server.revision = 6;
    calls[0].resolve({ revision: 6, inverse: { kind: "restore", keys: [K(3)] } });
    await flush();
    store.undo();
    expect(text(store, 3)).toBeUndefined(); // not optimistic
    server.nodes = ROWS;
    server.revision = 7;
    calls[1].resolve({ revision: 7, inverse: { kind: "delete", keys: [K(3)] } });
    await flush();
    await flush();
    expect(text(store, 3)).toBe("Node 3");
    expect(store.getSnapshot()).toMatchObject({ revision: 7, canRedo: true });
  });

  it("keeps a change when the server cannot be reached and retries it with the same client id", async () => {
    vi.useFakeTimers();
    const { store, calls } = await setup();
    store.submit({ kind: "update", key: K(2), fields: { weight: 3 } }, { label: "Weight" });
    calls[0].reject(new ApiClientError(0, "network", "offline"));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getSnapshot().offline).toMatch(/Offline/);
    expect(store.getSnapshot().pendingCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(2);
    expect(calls[1].body?.clientOpId).toBe(calls[0].body?.clientOpId);
    calls[1].resolve({ revision: 6, inverse: { kind: "update", key: K(2), fields: { weight: 1 } } });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getSnapshot()).toMatchObject({ offline: null, pendingCount: 0, revision: 6 });
  });

  it("is read-only for a grader", async () => {
    const fake = fakeServer({ rubricId: "r1", revision: 5, canEdit: false, nodes: ROWS, dismissals: [] });
    const store = new RubricStore({ paperId: "p1", canEdit: false, fetchImpl: fake.fetchImpl });
    await store.load();
    expect(store.submit({ kind: "update", key: K(2), fields: { weight: 2 } }, { label: "x" }).ok).toBe(false);
    store.undo();
    expect(fake.calls).toHaveLength(0);
    expect(store.getSnapshot()).toMatchObject({ canEdit: false, canUndo: false });
  });
});

describe("RubricStore following the live feed", () => {
  it("applies someone else's next operation at once, without reloading", async () => {
    const { store, fetchImpl } = await setup();
    const loads = vi.mocked(fetchImpl).mock.calls.length;
    store.receiveRemote({
      revision: 6,
      kind: "update",
      clientOpId: "other",
      userName: null,
      op: { kind: "update", key: K(3), fields: { requirements: "Theirs" } },
    });
    expect(text(store, 3)).toBe("Theirs");
    expect(store.getSnapshot().revision).toBe(6);
    expect(vi.mocked(fetchImpl).mock.calls.length).toBe(loads);
    // A repeat (or our own confirmed change) is ignored.
    store.receiveRemote({
      revision: 6,
      kind: "update",
      clientOpId: "other",
      userName: null,
      op: { kind: "update", key: K(3), fields: { requirements: "Again" } },
    });
    expect(text(store, 3)).toBe("Theirs");
  });

  it("keeps my pending change on top of someone else's, and ignores the echo of my own", async () => {
    const { store, calls } = await setup();
    store.submit({ kind: "update", key: K(2), fields: { requirements: "Mine" } }, { label: "Edit" });
    const mine = calls[0].body!.clientOpId;
    // The echo of my own change arrives before its answer: nothing happens.
    store.receiveRemote({ revision: 6, kind: "update", clientOpId: mine, userName: null, op: calls[0].body!.op });
    expect(store.getSnapshot()).toMatchObject({ revision: 5, pendingCount: 1 });
    expect(text(store, 2)).toBe("Mine");
  });

  it("reloads the rows for an import, a gap in revisions, or an operation that does not apply", async () => {
    const { store, server, fetchImpl } = await setup();
    server.nodes = [row(1, null, "a0"), row(2, 1, "a0", { requirements: "Reimported" })];
    server.revision = 9;
    const loads = vi.mocked(fetchImpl).mock.calls.length;
    store.receiveRemote({ revision: 9, kind: "import", clientOpId: null, userName: null, op: null });
    await flush();
    expect(vi.mocked(fetchImpl).mock.calls.length).toBe(loads + 1);
    expect(store.getSnapshot()).toMatchObject({ revision: 9 });
    expect(text(store, 2)).toBe("Reimported");
    expect(text(store, 3)).toBeUndefined();
  });
});

describe("RubricStore and merged texts", () => {
  it("reloads the rows when the server merged a requirement text with someone else's", async () => {
    const { store, calls, server } = await setup();
    store.submit(
      { kind: "update", key: K(2), fields: { requirements: "Node 2 mine" }, base: { requirements: "Node 2" } },
      { label: "Edit" },
    );
    server.nodes = server.nodes.map((r) => (r.key === K(2) ? { ...r, requirements: "Theirs: Node 2 mine" } : r));
    server.revision = 7;
    calls[0].resolve({
      revision: 7,
      inverse: { kind: "update", key: K(2), fields: { requirements: "Theirs: Node 2" } },
      merged: true,
    });
    await flush();
    await flush();
    expect(text(store, 2)).toBe("Theirs: Node 2 mine");
    expect(store.getSnapshot().revision).toBe(7);
  });
});

describe("RubricStore and deletions by others", () => {
  it("tells which nodes someone else's delete removed, subtree included", async () => {
    const { store } = await setup({ nodes: [...ROWS, row(4, 2, "a0")] });
    const seen: [string[], string[], string | null][] = [];
    const off = store.onRemoteDelete(({ roots, removed, by }) => seen.push([roots, [...removed].sort(), by]));
    store.receiveRemote({
      revision: 6,
      kind: "delete",
      clientOpId: "other",
      userName: "Sam",
      op: { kind: "delete", keys: [K(2)] },
    });
    expect(seen).toEqual([[[K(2)], [K(2), K(4)], "Sam"]]);
    expect(text(store, 4)).toBeUndefined();
    off();
    store.receiveRemote({
      revision: 7,
      kind: "delete",
      clientOpId: "other",
      userName: null,
      op: { kind: "delete", keys: [K(3)] },
    });
    expect(seen).toHaveLength(1);
  });

  it("keeps an edit typed into a node someone else deleted, and restores the node with it", async () => {
    const { store, calls, refused, server } = await setup();
    const stranded: StrandedEdit[] = [];
    store.onStrandedEdit((e) => stranded.push(e));
    store.receiveRemote({
      revision: 6,
      kind: "delete",
      clientOpId: "other",
      userName: "Sam",
      op: { kind: "delete", keys: [K(2)] },
    });
    const edit: RubricOperation = {
      kind: "update",
      key: K(2),
      fields: { requirements: "Node 2 and more" },
      base: { requirements: "Node 2" },
    };
    expect(store.submit(edit, { label: "Edit requirements" }).ok).toBe(false);
    // Not refused (no rolled-back toast): handed over with who deleted it.
    expect(refused).toEqual([]);
    expect(stranded).toEqual([{ op: edit, deletion: { roots: [K(2)], removed: new Set([K(2)]), by: "Sam" } }]);

    const done = restoreStrandedEdit(store, stranded[0], "Edit requirements");
    expect(calls[0].body!.op).toEqual({ kind: "restore", keys: [K(2)] });
    server.revision = 7;
    calls[0].resolve({ revision: 7, inverse: { kind: "delete", keys: [K(2)] } });
    await flush();
    await flush();
    expect((await done).ok).toBe(true);
    expect(calls[1].body!.op).toEqual(edit);
    expect(text(store, 2)).toBe("Node 2 and more");
  });
});
