"use client";

import { CircleHelp } from "lucide-react";
import { useState, type RefObject } from "react";
import { toast } from "sonner";
import { fetchJson, jsonInit } from "@/components/api/client";
import { Button } from "@/components/ui/button";
import type { ReviewModel } from "@/lib/review/review-model";
import type { ReviewUnsureFlag } from "@/lib/review/types";
import { PanelSection } from "./panel-section";

/**
 * A leaf's "unsure" flags (who, their note, Clear for one's own and for staff) and, for a reviewer
 * who has not flagged it, the note box that flags it (`u` focuses it, Enter flags the leaf and
 * moves on). Keyed by the leaf: a note being typed stays with its leaf.
 */
export function UnsureSection({
  model,
  gradingId,
  leafKey,
  canFlag,
  noteRef,
  onFlagged,
}: {
  model: ReviewModel;
  gradingId: string;
  leafKey: string;
  /** The viewer may review this leaf. */
  canFlag: boolean;
  noteRef: RefObject<HTMLInputElement | null>;
  /** After flagging: move on to the next leaf to review. */
  onFlagged(): void;
}) {
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const flags = model.leaf(leafKey)?.unsure ?? [];
  const { userId, role } = model.payload.viewer;
  const flaggedByMe = flags.some((f) => f.userId === userId);
  if (flags.length === 0 && !canFlag) return null;

  async function send(init: RequestInit, query: string, done: string): Promise<boolean> {
    setBusy(true);
    try {
      const { flags: next } = await fetchJson<{ flags: ReviewUnsureFlag[] }>(
        `/api/gradings/${gradingId}/unsure${query}`,
        init,
      );
      model.setUnsure(leafKey, next);
      toast.success(done);
      return true;
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function flag() {
    if (busy) return;
    if (
      await send(
        jsonInit("POST", { nodeKey: leafKey, note }),
        "",
        "Marked unsure: it stays unreviewed, flagged for staff",
      )
    ) {
      setNote("");
      onFlagged();
    }
  }

  function clear(flagOf: string) {
    const query = `?nodeKey=${leafKey}${flagOf === userId ? "" : `&userId=${flagOf}`}`;
    void send({ method: "DELETE" }, query, "Unsure flag cleared");
  }

  return (
    <PanelSection title="Unsure" testId="unsure-section">
      {flags.length > 0 && (
        <ul className="space-y-1.5 text-sm">
          {flags.map((f) => (
            <li
              key={f.userId}
              className="rounded border border-violet-200 bg-violet-50 px-2 py-1"
              data-testid="unsure-flag"
            >
              <div className="flex items-start gap-1.5">
                <CircleHelp size={13} className="mt-1 shrink-0 text-violet-700" aria-hidden />
                <p className="min-w-0 flex-1 text-zinc-600">
                  <span className="font-medium text-zinc-800">
                    {f.userId === userId ? "You" : (f.user.name ?? f.user.email)}
                  </span>{" "}
                  marked it unsure{" "}
                  <time className="whitespace-nowrap text-[11px] text-zinc-400" dateTime={f.createdAt}>
                    {new Date(f.createdAt).toLocaleString("en")}
                  </time>
                </p>
                {(f.userId === userId || role === "staff") && (
                  <button
                    type="button"
                    data-testid="unsure-clear"
                    disabled={busy}
                    onClick={() => clear(f.userId)}
                    className="shrink-0 rounded px-1 text-xs font-medium text-violet-800 hover:bg-violet-100"
                  >
                    Clear
                  </button>
                )}
              </div>
              {f.note && (
                <p className="mt-0.5 whitespace-pre-wrap text-xs text-zinc-700" data-testid="unsure-note">
                  “{f.note}”
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {canFlag && !flaggedByMe && (
        <div className="flex items-center gap-2">
          <label className="sr-only" htmlFor="unsure-note">
            Why are you unsure?
          </label>
          <input
            id="unsure-note"
            ref={noteRef}
            data-testid="unsure-note-input"
            value={note}
            maxLength={2000}
            disabled={busy}
            onChange={(e) => setNote(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void flag();
              } else if (e.key === "Escape") {
                e.preventDefault();
                e.currentTarget.blur();
              }
            }}
            placeholder="Note for staff (u)"
            title="Why you cannot score this leaf yet; Enter marks it unsure and moves on"
            className="h-8 min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2.5 text-sm shadow-xs focus:border-violet-500 focus:outline-none focus:ring-2 focus:ring-violet-200"
          />
          <Button variant="secondary" data-testid="unsure-mark" disabled={busy} onClick={() => void flag()}>
            Mark unsure
          </Button>
        </div>
      )}
    </PanelSection>
  );
}
