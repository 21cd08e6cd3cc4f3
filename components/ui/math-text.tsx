import katex from "katex";
import "katex/dist/katex.min.css";
import { mayHoldMath, splitMath } from "@/lib/math";

/**
 * KaTeX's rendering of one formula. `trust: false` refuses \href, \url, \htmlClass and the like, and
 * KaTeX escapes every character it prints, so its HTML carries no markup from the text; a formula it
 * cannot parse is shown in red rather than thrown. Cached: a tree repaints the same rows on scroll.
 */
const rendered = new Map<string, string>();
const CACHE_SIZE = 2000;

export function renderTex(tex: string, display: boolean): string {
  const key = (display ? "D" : "I") + tex;
  let html = rendered.get(key);
  if (html === undefined) {
    html = katex.renderToString(tex, {
      displayMode: display,
      throwOnError: false,
      trust: false,
      strict: "ignore",
      output: "htmlAndMathml",
    });
    if (rendered.size >= CACHE_SIZE) rendered.delete(rendered.keys().next().value!);
    rendered.set(key, html);
  }
  return html;
}

/**
 * Plain text with its `$…$` and `$$…$$` math rendered by KaTeX; everything else stays text.
 * `inline`: display math too is set inline (a one- or two-line tree row).
 */
export function MathText({ text, className, inline = false }: { text: string; className?: string; inline?: boolean }) {
  if (!mayHoldMath(text)) return className ? <span className={className}>{text}</span> : <>{text}</>;
  const parts = splitMath(text).map((segment, i) =>
    segment.kind === "text" ? (
      segment.text
    ) : (
      <span
        key={i}
        className={segment.display && !inline ? "block overflow-x-auto py-1 text-center" : undefined}
        // Safe: KaTeX output with trust off (see renderTex); the text never reaches innerHTML unescaped.
        dangerouslySetInnerHTML={{ __html: renderTex(segment.tex, segment.display && !inline) }}
      />
    ),
  );
  return <span className={className}>{parts}</span>;
}
