"use client";

import { ArrowLeft } from "lucide-react";
import { IntentLink } from "./intent-prefetch";

/**
 * The arrow back to a paper's page, at the top of the editor and the review page (and their
 * loading and empty states). It fetches the paper page on intent only: fetched on sight, the paper
 * page was rendered on the studio's server while the editor or the review page loaded its own data.
 */
export function BackToPaperLink({ paperId }: { paperId: string }) {
  return (
    <IntentLink
      href={`/papers/${paperId}`}
      className="rounded-md p-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900"
      aria-label="Back to the paper"
    >
      <ArrowLeft size={16} />
    </IntentLink>
  );
}
