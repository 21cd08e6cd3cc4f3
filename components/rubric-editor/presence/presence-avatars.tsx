"use client";

import type { TreeIndex } from "@/lib/rubric/tree-index";
import { initials, personColor } from "./person-color";
import type { PresencePerson } from "./use-presence";

/**
 * Who else is on the rubric, one avatar per person (their open tabs together). The tooltip says
 * where they are; a click jumps to the node they are on.
 */
export function PresenceAvatars({
  people,
  index,
  onSelect,
}: {
  people: readonly PresencePerson[];
  index: TreeIndex;
  onSelect: (key: string) => void;
}) {
  const byUser = new Map<string, PresencePerson[]>();
  for (const p of people) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
  if (byUser.size === 0) {
    return (
      <span className="text-xs text-zinc-400" data-testid="presence-alone">
        Only you here
      </span>
    );
  }
  return (
    <ul className="flex items-center -space-x-1.5" aria-label="Also on this rubric" data-testid="presence-avatars">
      {[...byUser.values()].map((sessions) => {
        const person = sessions[0];
        const at = sessions.find((s) => s.editingKey) ?? sessions.find((s) => s.selectedKey) ?? person;
        const key = at.editingKey ?? at.selectedKey;
        const row = key ? index.byKey.get(key) : undefined;
        const where = row
          ? `${at.editingKey ? "editing" : "on"} “${truncate(row.requirements || "(empty)", 60)}”`
          : "looking around";
        return (
          <li key={person.userId}>
            <button
              type="button"
              data-testid="presence-avatar"
              data-name={person.name}
              title={`${person.name}: ${where}`}
              aria-label={`${person.name}, ${where}${row ? "; go there" : ""}`}
              disabled={!row}
              onClick={() => row && onSelect(row.key)}
              className="flex size-7 items-center justify-center rounded-full text-[11px] font-semibold text-white ring-2 ring-white disabled:cursor-default"
              style={{ backgroundColor: personColor(person.userId) }}
            >
              {initials(person.name)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The small coloured markers on a tree row: who has the node selected (dot) or is editing it (ring). */
export function PresenceMarkers({ people }: { people: readonly PresencePerson[] | undefined }) {
  if (!people?.length) return null;
  return (
    <span className="flex shrink-0 items-center -space-x-1" data-testid="presence-marker">
      {people.slice(0, 3).map((p) => (
        <span
          key={p.sessionId}
          title={`${p.name} ${p.editingKey ? "is editing this" : "has this selected"}`}
          aria-label={`${p.name} ${p.editingKey ? "is editing this" : "has this selected"}`}
          data-editing={p.editingKey ? "true" : "false"}
          className={`flex h-4 min-w-4 items-center justify-center rounded-full px-1 text-[9px] font-semibold text-white ${p.editingKey ? "animate-pulse ring-2 ring-offset-1" : ""}`}
          style={{ backgroundColor: personColor(p.userId), ["--tw-ring-color" as string]: personColor(p.userId) }}
        >
          {initials(p.name)}
        </span>
      ))}
    </span>
  );
}

function truncate(text: string, n: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}
