"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { SubmitOptions, SubmitResult } from "./rubric-store-types";

/**
 * A node's requirement text being typed, in whichever field edits it (the tree's inline editor, the
 * inspector). Every such field keeps its draft with `useRequirementDraft` and saves it with
 * `submitRequirementEdit`, so that every save sends as its merge base the text the field showed
 * when the typing began. The row's text at save time will not do: it may already hold someone
 * else's save, received live while this person typed, and with it as the base the server would
 * see no concurrent change and put this person's text over theirs.
 */
export interface RequirementEdit {
  key: string;
  text: string;
  /** What the field showed when the typing began: the base of the server's three-way merge. */
  startedFrom: string;
}

/** Saves an edit; the server (and the optimistic update) merge it with what others saved since it began. */
export function submitRequirementEdit(
  submit: (op: RubricOperation, options: SubmitOptions) => SubmitResult,
  edit: RequirementEdit,
  onError?: (message: string) => void,
): SubmitResult {
  const op: RubricOperation = {
    kind: "update",
    key: edit.key,
    fields: { requirements: edit.text },
    base: { requirements: edit.startedFrom },
  };
  return submit(op, { label: "Edit requirements", onError });
}

/**
 * The draft of node `key`'s requirement text, whose saved text is now `saved`. With `follow`, the
 * draft shows changes saved elsewhere (live, undo) until the user types; without it (an editor
 * opened on the text for one edit) it keeps the text it opened with.
 */
export function useRequirementDraft(key: string, saved: string, { follow }: { follow: boolean }) {
  const [draft, setDraft] = useState(saved);
  // Null until the user types; then the text the field showed just before, until the edit ends.
  const startedFrom = useRef<string | null>(null);
  const latest = useRef({ draft, saved });
  latest.current = { draft, saved };

  useEffect(() => {
    if (follow && startedFrom.current === null) setDraft(saved);
  }, [follow, saved]);

  const change = useCallback((text: string) => {
    if (startedFrom.current === null) startedFrom.current = latest.current.draft;
    setDraft(text);
  }, []);

  /** Ends the edit: what to save, or null when nothing new was typed. */
  const finish = useCallback((): RequirementEdit | null => {
    const from = startedFrom.current;
    startedFrom.current = null;
    const { draft: text, saved: now } = latest.current;
    if (from !== null && text !== from && text !== now) return { key, text, startedFrom: from };
    // Typed and typed back: show what is saved, which may have changed meanwhile.
    if (follow) setDraft(now);
    return null;
  }, [key, follow]);

  /** Puts back an edit that was not saved (refused), to fix and save again from the same merge base. */
  const keep = useCallback((edit: RequirementEdit) => {
    startedFrom.current = edit.startedFrom;
    setDraft(edit.text);
  }, []);

  /** Drops what was typed. */
  const cancel = useCallback(() => {
    startedFrom.current = null;
    setDraft(latest.current.saved);
  }, []);

  return { draft, change, finish, keep, cancel };
}
