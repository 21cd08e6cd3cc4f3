import "server-only";
import type { Store } from "@/db/client";
import type { PresencePerson } from "@/lib/live/presence-schemas";
import { INSTANCE_ID, announceLive, onRemoteSignal, type LiveSignal, type PresenceEntry } from "./rubric-feed";

/**
 * Who is on which rubric, and which node each of them has selected or is editing. Presence lives
 * in memory: every process keeps a copy of every session, its own (those whose event stream it
 * holds) and, on PostgreSQL, the others' (replicated through the live feed's NOTIFY). The owner
 * removes a session when its stream closes and vouches for it on every heartbeat; an entry nobody
 * vouched for lately (its process died) is dropped.
 */

/** An entry not vouched for within this long is gone (the owner refreshes every 15 s). */
const TTL_MS = 45_000;

export type { PresencePerson };

type Announcer = (paperId: string, signal: LiveSignal) => Promise<void>;

interface PresenceState {
  byPaper: Map<string, Map<string, PresenceEntry>>;
  /** How this process announces (the database it last served a session from), for re-announcing on sync. */
  announce: Announcer | null;
}
const globalForPresence = globalThis as unknown as { __rubricPresence?: PresenceState };
function state(): PresenceState {
  if (!globalForPresence.__rubricPresence) {
    const s: PresenceState = { byPaper: new Map(), announce: null };
    globalForPresence.__rubricPresence = s;
    onRemoteSignal((paperId, signal) => {
      if (signal.type !== "presence") return;
      const change = signal.change;
      if (change.kind === "set") sessionsOf(s, paperId).set(change.entry.sessionId, change.entry);
      else if (change.kind === "leave") removeSession(s, paperId, change.sessionId, change.connectionId);
      else void announceOwnSessions(s);
    });
  }
  return globalForPresence.__rubricPresence;
}

function sessionsOf(s: PresenceState, paperId: string): Map<string, PresenceEntry> {
  let sessions = s.byPaper.get(paperId);
  if (!sessions) s.byPaper.set(paperId, (sessions = new Map()));
  return sessions;
}

function removeSession(s: PresenceState, paperId: string, sessionId: string, connectionId: string): boolean {
  const sessions = s.byPaper.get(paperId);
  if (sessions?.get(sessionId)?.connectionId !== connectionId) return false;
  sessions.delete(sessionId);
  if (sessions.size === 0) s.byPaper.delete(paperId);
  return true;
}

async function announceOwnSessions(s: PresenceState): Promise<void> {
  if (!s.announce) return;
  for (const [paperId, sessions] of s.byPaper) {
    for (const entry of sessions.values()) {
      if (entry.owner === INSTANCE_ID)
        await s.announce(paperId, { type: "presence", change: { kind: "set", entry } }).catch(() => {});
    }
  }
}

function announcer(store: Store): Announcer {
  return (paperId, signal) => announceLive(store, paperId, signal);
}

/** Everyone on the paper's rubric now, oldest session first. */
export function listPresence(paperId: string): PresencePerson[] {
  const sessions = state().byPaper.get(paperId);
  if (!sessions) return [];
  const now = Date.now();
  const people: PresencePerson[] = [];
  for (const [id, { owner, seenAt, connectionId: _, ...person }] of sessions) {
    if (owner !== INSTANCE_ID && now - seenAt > TTL_MS) sessions.delete(id);
    else people.push(person);
  }
  return people;
}

/** A session's stream opened on this process: it is on the rubric, with nothing selected yet. */
export async function joinPresence(
  store: Store,
  paperId: string,
  person: { sessionId: string; userId: string; name: string },
): Promise<{ connectionId: string }> {
  const s = state();
  s.announce = announcer(store);
  const connectionId = crypto.randomUUID();
  const entry: PresenceEntry = {
    ...person,
    selectedKey: null,
    editingKey: null,
    owner: INSTANCE_ID,
    connectionId,
    seenAt: Date.now(),
  };
  sessionsOf(s, paperId).set(person.sessionId, entry);
  await s.announce(paperId, { type: "presence", change: { kind: "set", entry } });
  return { connectionId };
}

/**
 * What a session has selected or is editing. Only the session's own user may say so; the session
 * may be held by another process (then this one's replicated copy knows it). False when the
 * session is not (or no longer) on the rubric.
 */
export async function updatePresence(
  store: Store,
  paperId: string,
  update: { sessionId: string; userId: string; selectedKey: string | null; editingKey: string | null },
): Promise<boolean> {
  const current = state().byPaper.get(paperId)?.get(update.sessionId);
  if (!current || current.userId !== update.userId) return false;
  if (current.selectedKey === update.selectedKey && current.editingKey === update.editingKey) return true;
  const entry: PresenceEntry = {
    ...current,
    selectedKey: update.selectedKey,
    editingKey: update.editingKey,
    seenAt: Date.now(),
  };
  sessionsOf(state(), paperId).set(entry.sessionId, entry);
  await announceLive(store, paperId, { type: "presence", change: { kind: "set", entry } });
  return true;
}

/** The owner vouches for a session again (its stream is still open); other processes hear it on PostgreSQL. */
export async function refreshPresence(store: Store, paperId: string, sessionId: string): Promise<void> {
  const entry = state().byPaper.get(paperId)?.get(sessionId);
  if (!entry || entry.owner !== INSTANCE_ID) return;
  entry.seenAt = Date.now();
  if (store.kind === "postgres") {
    await announceLive(
      store,
      paperId,
      { type: "presence", change: { kind: "set", entry } },
      { remoteOnly: true },
    ).catch(() => {});
  }
}

/** A session's stream closed: it has left (unless a newer stream of the session took its place). */
export async function leavePresence(
  store: Store,
  paperId: string,
  session: { sessionId: string; connectionId: string },
): Promise<void> {
  if (!removeSession(state(), paperId, session.sessionId, session.connectionId)) return;
  await announceLive(store, paperId, { type: "presence", change: { kind: "leave", ...session } });
}
