import "katex/dist/katex.min.css";
import { lazyModule } from "@/components/hooks/lazy-module";
import { mayHoldMath, splitMath } from "@/lib/math";

type Katex = typeof import("katex").default;

/**
 * KaTeX (about 270 KB of script) loads when the first formula is on screen, not with the page: most
 * rows hold none, and an open waited for it. Until it is there a formula shows as its source. Its
 * style sheet stays with the page's CSS: a sheet added once the page is up makes the browser rebuild
 * its style rules (as sonner's did: patches/README.md), and the review page has formulas in its
 * first rows.
 */
const katexModule = lazyModule(async (): Promise<Katex> => (await import("katex")).default);

/** Loads KaTeX once; formulas on screen render when it is there. */
export const loadKatex = katexModule.load;

/**
 * KaTeX's rendering of one formula. `trust: false` refuses \href, \url, \htmlClass and the like, and
 * KaTeX escapes every character it prints, so its HTML carries no markup from the text; a formula it
 * cannot parse is shown in red rather than thrown. Cached: a tree repaints the same rows on scroll.
 */
const rendered = new Map<string, string>();
const CACHE_SIZE = 2000;

function renderTex(lib: Katex, tex: string, display: boolean): string {
  const key = (display ? "D" : "I") + tex;
  let html = rendered.get(key);
  if (html === undefined) {
    html = lib.renderToString(tex, {
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
  return <Formulas text={text} className={className} inline={inline} />;
}

/** MathText of a text that may hold math: its source until KaTeX is loaded (see loadKatex). */
function Formulas({ text, className, inline }: { text: string; className?: string; inline: boolean }) {
  const lib = katexModule.useModule();
  if (!lib) return <span className={className}>{text}</span>;
  const parts = splitMath(text).map((segment, i) =>
    segment.kind === "text" ? (
      segment.text
    ) : (
      <span
        key={i}
        className={segment.display && !inline ? "block overflow-x-auto py-1 text-center" : undefined}
        // Safe: KaTeX output with trust off (see renderTex); the text never reaches innerHTML unescaped.
        dangerouslySetInnerHTML={{ __html: renderTex(lib, segment.tex, segment.display && !inline) }}
      />
    ),
  );
  return <span className={className}>{parts}</span>;
}
