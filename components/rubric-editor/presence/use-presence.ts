"use client";

import { useEffect, useRef, useState } from "react";
import { fetchJson, jsonInit } from "@/components/api/client";
import type { PresencePerson } from "@/lib/live/presence-schemas";
import type { RubricStore } from "../rubric-store";

export type { PresencePerson };

/** How long a selection must hold before it is reported: arrowing through the tree sends one update, not twenty. */
const REPORT_DELAY_MS = 80;

/**
 * Who else is on this rubric (other open editors, from the live feed), and reports this editor's
 * selected and edited node to them. After the feed reconnects, the last report is sent again (the
 * server forgot this session when its stream closed).
 */
export function usePresence(
  store: RubricStore,
  paperId: string,
  mine: { selectedKey: string | null; editingKey: string | null },
): PresencePerson[] {
  const [others, setOthers] = useState<PresencePerson[]>([]);
  const sent = useRef<string | null>(null);
  const latest = useRef(mine);
  latest.current = mine;
  const scheduleRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    const url = `/api/papers/${encodeURIComponent(paperId)}/rubric/presence`;
    const report = () => {
      const body = { session: store.sessionId, ...latest.current };
      const key = JSON.stringify(body);
      if (key === sent.current) return;
      sent.current = key;
      // A report that fails (the stream is reconnecting) is sent again once it is back.
      fetchJson(url, jsonInit("POST", body)).catch(() => {
        sent.current = null;
      });
    };
    const offPresence = store.onLive("presence", (data) => {
      const next = (data as PresencePerson[]).filter((p) => p.sessionId !== store.sessionId);
      setOthers((shown) => unchangedOr(shown, next));
      // The first presence list after (re)joining: this session is known again, so say where it is.
      if (sent.current === null) report();
    });
    const offReady = store.onLive("ready", () => {
      sent.current = null;
    });
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(report, REPORT_DELAY_MS);
    };
    scheduleRef.current = schedule;
    return () => {
      offPresence();
      offReady();
      if (timer) clearTimeout(timer);
      scheduleRef.current = null;
    };
  }, [store, paperId]);

  useEffect(() => {
    scheduleRef.current?.();
  }, [mine.selectedKey, mine.editingKey]);

  return others;
}

/**
 * `shown` when `next` says the same of the same people, else `next`. The whole list arrives each
 * time anyone on the rubric moves, this editor included (its own report comes back to it): a new
 * array every time re-rendered the editor and every row after each click, for nothing.
 */
export function unchangedOr(shown: PresencePerson[], next: PresencePerson[]): PresencePerson[] {
  const same =
    shown.length === next.length &&
    shown.every(
      (p, i) =>
        p.sessionId === next[i].sessionId &&
        p.userId === next[i].userId &&
        p.name === next[i].name &&
        p.selectedKey === next[i].selectedKey &&
        p.editingKey === next[i].editingKey,
    );
  return same ? shown : next;
}

/** Presence by node: who has each node selected or is editing it (for the tree's markers). */
export function presenceByNode(people: readonly PresencePerson[]): Map<string, PresencePerson[]> {
  const byKey = new Map<string, PresencePerson[]>();
  for (const p of people) {
    const key = p.editingKey ?? p.selectedKey;
    if (!key) continue;
    const list = byKey.get(key);
    if (list) list.push(p);
    else byKey.set(key, [p]);
  }
  return byKey;
}
