"use client";

import { lazyModule } from "@/components/hooks/lazy-module";

/**
 * The markdown renderer (react-markdown with GFM, math and sanitising: a 424 KB chunk) loaded once
 * the page is idle, not with it. The review page shows markdown only in a leaf's explanation, which
 * reads as written until then; loaded with the page, or as the first explanation arrived, the chunk
 * was fetched and run inside the page's open.
 */
const renderer = lazyModule(() => import("./markdown"));

/** Loads the renderer once (a failed load is tried again by the next caller). */
export const loadMarkdown = renderer.load;

/** `Markdown` once its chunk is there; until then the text as written (line breaks kept), never an empty box. */
export function LazyMarkdown({ children }: { children: string }) {
  const loaded = renderer.useModuleWhenIdle();
  if (!loaded)
    return (
      <div className="prose-studio whitespace-pre-wrap" data-testid="markdown-source">
        {children}
      </div>
    );
  return <loaded.Markdown>{children}</loaded.Markdown>;
}
