"use client";

import { useEffect } from "react";
import { lazyModule } from "@/components/hooks/lazy-module";

/**
 * The markdown renderer (react-markdown with GFM, math, sanitising and KaTeX: about 420 KB of
 * script) in a chunk of its own. The review page shows markdown only in a leaf's explanation,
 * which arrives after the page is up; with the renderer among the page's own chunks, every open
 * parsed and compiled it before the first row was shown.
 */
const renderer = lazyModule(() => import("./markdown"));

/** Loads the renderer once (a failed load is tried again by the next caller). */
export const loadMarkdown = renderer.load;

/** `Markdown` once its chunk is there; until then the text as written (line breaks kept), never an empty box. */
export function LazyMarkdown({ children }: { children: string }) {
  const loaded = renderer.useModule();
  if (!loaded)
    return (
      <div className="prose-studio whitespace-pre-wrap" data-testid="markdown-source">
        {children}
      </div>
    );
  return <loaded.Markdown>{children}</loaded.Markdown>;
}

/** Starts loading the renderer while the caller waits for something else (a leaf's detail), so markdown that arrives later shows at once. */
export function usePreloadMarkdown(): void {
  useEffect(() => {
    loadMarkdown().catch(() => undefined);
  }, []);
}
