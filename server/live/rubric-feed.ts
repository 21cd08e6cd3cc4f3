import "server-only";
import { log } from "@/server/observability/log";
import { EventEmitter } from "node:events";
import { afterAnswer } from "./after-answer";
import type { Executor, Store } from "@/db/client";
import { notifyChannel } from "@/db/queries/notify";
import { listLoggedOperationsSince } from "@/db/queries/rubric-operations";
import type { RubricOperation } from "@/lib/rubric/operations";
import { userDisplayName } from "@/lib/users/display-name";
import { openListenConnection, type ListenConnection } from "./listen-connection";

/**
 * Live rubric signals. Every applied operation announces "paper P's rubric is at revision N";
 * followers then read the operations after their own revision from the log, so a missed
 * announcement costs nothing (the next one, or a reconnect with `since`, catches up). Other signals
 * say that the review status or the comments changed (followers refetch them) or that someone's
 * presence changed. Within one process a signal is an in-memory event; with PostgreSQL it also goes
 * out as NOTIFY, and every studio process LISTENs and re-emits it locally, so followers on another
 * instance hear it too.
 */

const CHANNEL = "rubric_revisions";

export type LiveSignal =
  | { type: "revision"; revision: number; by?: RevisionAuthor }
  | { type: "review" }
  | { type: "comments" }
  | { type: "presence"; change: PresenceChange }
  /** What a user may see changed (membership, role, disabled, sessions revoked): their streams re-check now. */
  | { type: "access"; userId: string }
  /** A user's notifications changed (a new one, some read): their inbox streams re-read the unread count. */
  | { type: "notifications" }
  /** A job changed (queued, claimed, a log chunk, finished): its followers re-read it (server/live/job-feed.ts). */
  | { type: "job" }
  /** A cell of an evaluation changed: its matrix streams say so (server/evaluations/pipeline/evaluation-feed.ts). */
  | { type: "evaluation" }
  /**
   * Announcements from other processes may have been lost (the LISTEN connection was down and is
   * back): every follower re-reads whatever it shows, as after a reconnect. Never sent as NOTIFY.
   */
  | { type: "resync" };

/**
 * The open editor whose operation made a revision: its own live feed skips the operation (its
 * answer confirmed it already), which took a read, a write and the browser's handling of it off the
 * moment the answer arrives. The user too: an editor's session id is no secret (presence lists it),
 * and only its own user's operations may be skipped on its feed.
 */
export interface RevisionAuthor {
  userId: string;
  editorSession: string;
}

/** What happened to whom: replicated to every process, which keeps its own copy of who is where. */
export type PresenceChange =
  | { kind: "set"; entry: PresenceEntry }
  | { kind: "leave"; sessionId: string; connectionId: string }
  /** A process that just started listening asks the others to say who they have. */
  | { kind: "sync" };

export interface PresenceEntry {
  /** One open editor (a browser tab): a person with two tabs is two sessions. */
  sessionId: string;
  userId: string;
  name: string;
  selectedKey: string | null;
  editingKey: string | null;
  /** The process that holds this session's event stream (it refreshes and removes the entry). */
  owner: string;
  /**
   * The stream itself: a browser that reconnects opens the new stream before the old one is seen
   * to close, and the old one's leaving must not remove the new one.
   */
  connectionId: string;
  /** When the owner last vouched for it (ms since epoch). */
  seenAt: number;
}

/** This process, in NOTIFY payloads: a process skips its own, already emitted locally. */
export const INSTANCE_ID = crypto.randomUUID();

interface FeedState {
  local: EventEmitter;
  listener: ListenConnection | null;
  remoteHooks: Set<(paperId: string, signal: LiveSignal) => void>;
}
const globalForFeed = globalThis as unknown as { __rubricFeed?: FeedState };
function state(): FeedState {
  globalForFeed.__rubricFeed ??= {
    local: new EventEmitter().setMaxListeners(0),
    listener: null,
    remoteHooks: new Set(),
  };
  return globalForFeed.__rubricFeed;
}

/**
 * Tells this process's followers of the paper and, on PostgreSQL, every other process
 * (`remoteOnly`: only the others, for news this process's followers already have).
 */
export async function announceLive(
  store: Store,
  paperId: string,
  signal: LiveSignal,
  opts: { remoteOnly?: boolean } = {},
): Promise<void> {
  if (!opts.remoteOnly) state().local.emit(paperId, signal);
  if (store.kind === "postgres") {
    await notifyChannel(store.db, CHANNEL, JSON.stringify({ paperId, signal, origin: INSTANCE_ID }));
  }
}

/**
 * "The rubric is at `revision`": announced by every service that changes it, once the change's own
 * answer has been sent (`afterAnswer`). Why: this process's followers read the new operation from
 * the database as soon as they hear of it, and on the embedded database that read runs on the
 * request's thread, so announcing first kept the editor's "Saved" waiting behind every open
 * stream's read (and, on PostgreSQL, behind the NOTIFY). Followers lose nothing: they read every
 * operation after their own revision, whenever they hear. An announcement that fails is logged; the
 * change is committed either way.
 */
export function announceRubricRevision(
  store: Store,
  paperId: string,
  revision: number,
  by?: RevisionAuthor,
): Promise<void> {
  return afterAnswer(() =>
    announceLive(store, paperId, { type: "revision", revision, ...(by ? { by } : {}) }).catch((err) =>
      log.warn({ err, paperId, revision }, "a rubric change could not be announced"),
    ),
  );
}

/**
 * The feed's topic for one user's access changes (a paper's topic is its id, which has no colon):
 * every stream of that user, on every instance, follows it.
 */
const accessTopic = (userId: string) => `access:${userId}`;

/**
 * Tells every stream of the user, on this process and (on PostgreSQL) every other one, that what
 * the user may see has changed: the streams re-check their access at once. Announced by the
 * services that change it, after their transaction commits.
 */
export function announceAccessChange(store: Store, userId: string): Promise<void> {
  return announceLive(store, accessTopic(userId), { type: "access", userId });
}

/** Calls `listener` whenever the user's access changes (see announceAccessChange), until the returned function is called. */
export async function followAccess(
  userId: string,
  listener: () => void,
  opts: { databaseUrl?: string } = {},
): Promise<() => void> {
  return followRubric(accessTopic(userId), listener, opts);
}

/**
 * Runs `hook` on every signal that arrives from another process, before this process's followers
 * hear it (presence keeps its replicated map up to date this way).
 */
export function onRemoteSignal(hook: (paperId: string, signal: LiveSignal) => void): void {
  state().remoteHooks.add(hook);
}

/**
 * Calls `listener` with each signal about the paper's rubric, until the returned function is
 * called. On PostgreSQL (`databaseUrl`), the process's one LISTEN connection is opened first.
 */
export async function followRubric(
  paperId: string,
  listener: (signal: LiveSignal) => void,
  opts: { databaseUrl?: string } = {},
): Promise<() => void> {
  const s = state();
  if (opts.databaseUrl) await ensureListener(s, opts.databaseUrl);
  s.local.on(paperId, listener);
  return () => {
    s.local.off(paperId, listener);
  };
}

async function ensureListener(s: FeedState, databaseUrl: string): Promise<void> {
  if (!s.listener) {
    const listener = openListenConnection({
      databaseUrl,
      channel: CHANNEL,
      onNotification: (payload) => {
        let parsed: { paperId: string; signal: LiveSignal; origin: string };
        try {
          parsed = JSON.parse(payload);
        } catch {
          return; // Not ours: anyone with the database's credentials can NOTIFY on the channel.
        }
        const { paperId, signal, origin } = parsed;
        if (origin === INSTANCE_ID || typeof paperId !== "string" || signal?.type === "resync") return;
        for (const hook of s.remoteHooks) hook(paperId, signal);
        s.local.emit(paperId, signal);
      },
      onOpen: async (client, { reopened }) => {
        // What other processes announced while LISTEN was down is lost: every follower re-reads.
        if (reopened) for (const topic of s.local.eventNames()) s.local.emit(topic, { type: "resync" } as LiveSignal);
        // Whoever is already on a rubric through another process says so again.
        await client.query(`SELECT pg_notify($1, $2)`, [
          CHANNEL,
          JSON.stringify({ paperId: "*", signal: { type: "presence", change: { kind: "sync" } }, origin: INSTANCE_ID }),
        ]);
      },
      onProblem: (message) => log.warn({ component: "live-feed" }, message),
    });
    s.listener = listener;
    // A first connection that fails leaves nothing behind: the next follower tries afresh.
    listener.ready.catch(() => {
      if (s.listener === listener) s.listener = null;
      void listener.close();
    });
  }
  // Followers wait for the first connection only; while a lost one comes back they follow at
  // once (the resync on its return covers what they missed).
  if (!s.listener.isUp()) await s.listener.ready;
}

/** Whether this process's LISTEN connection holds (null: none is open, e.g. on PGlite). */
export function liveFeedIsUp(): boolean | null {
  const listener = state().listener;
  return listener ? listener.isUp() : null;
}

/** Closes this process's LISTEN connection (tests, shutdown). */
export async function stopRubricFeed(): Promise<void> {
  const s = state();
  const listener = s.listener;
  s.listener = null;
  await listener?.close();
}

export interface FeedOperation {
  revision: number;
  kind: string;
  clientOpId: string | null;
  userId: string | null;
  /** Who made it, as others see them named (so a co-editor is told who deleted their node); null for the CLI or a deleted user. */
  userName: string | null;
  /** The operation; null for an import, whose whole tree a follower reloads instead. */
  op: RubricOperation | null;
}

/** The logged operations after `since`, in order (at most `limit`; a follower asks again for more). */
export async function getOperationsSince(
  db: Executor,
  rubricId: string,
  since: number,
  limit = 500,
): Promise<FeedOperation[]> {
  const rows = await listLoggedOperationsSince(db, rubricId, since, limit);
  return rows.map((r) => ({
    revision: r.revision,
    kind: r.kind,
    clientOpId: r.clientOpId,
    userId: r.userId,
    userName: r.userEmail === null ? null : userDisplayName({ name: r.userName, email: r.userEmail }),
    op: r.kind === "import" ? null : (r.payload as { op: RubricOperation }).op,
  }));
}

/**
 * The operations after `since`, read once for every follower of this process that asks for the
 * same ones at the same time (50 editors on one rubric: one query per change, not 50). A read
 * is shared only with readers that heard the same latest announcement, so that none gets an
 * answer read before the change it was told about was committed.
 */
const sharedReads = new WeakMap<object, Map<string, Promise<FeedOperation[]>>>();
const heard = new Map<string, number>();

export function noteAnnouncedRevision(paperId: string, revision: number): void {
  if (revision > (heard.get(paperId) ?? 0)) heard.set(paperId, revision);
}

export function getOperationsSinceShared(
  db: Executor,
  paperId: string,
  rubricId: string,
  since: number,
  limit = 500,
): Promise<FeedOperation[]> {
  let reads = sharedReads.get(db);
  if (!reads) sharedReads.set(db, (reads = new Map()));
  const key = `${rubricId}:${since}:${limit}:${heard.get(paperId) ?? 0}`;
  let read = reads.get(key);
  if (!read) {
    const map = reads;
    read = getOperationsSince(db, rubricId, since, limit).finally(() => map.delete(key));
    reads.set(key, read);
  }
  return read;
}
