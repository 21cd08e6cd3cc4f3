import "katex/dist/katex.min.css";
import ReactMarkdown from "react-markdown";
import rehypeKatex from "rehype-katex";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { isInlineMath } from "@/lib/math";

/** The part of an mdast node this file reads (the mdast types are not a dependency of ours). */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/**
 * remark-math reads `$…$` like a code span, so "$5 and $10" would become math; inline math that
 * fails the rule plain text uses (lib/math.ts) goes back to the text it was written as.
 */
function remarkPricesStayText() {
  return (tree: MdNode, file: { value: unknown }) => {
    const source = String(file.value);
    const visit = (node: MdNode) => {
      node.children?.forEach((child, i) => {
        const start = child.position?.start.offset;
        const end = child.position?.end.offset;
        if (
          child.type === "inlineMath" &&
          start !== undefined &&
          end !== undefined &&
          !isInlineMath(child.value ?? "", source[end] ?? "")
        ) {
          node.children![i] = { type: "text", value: source.slice(start, end) };
        } else visit(child);
      });
    };
    visit(tree);
  };
}

/**
 * Sanitising runs before KaTeX: the author's markdown is cleaned (math arrives as `<code>` with
 * remark-math's classes, which the schema keeps), then KaTeX, with trust off, turns those into its
 * own escaped markup, which is not the author's HTML.
 */
const schema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [["className", /^language-./, "math-inline", "math-display"]],
  },
};

/** Markdown from paper authors, sanitised: no raw HTML, scripts or event handlers reach the page. Math is rendered by KaTeX. */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="prose-studio">
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkMath, remarkPricesStayText]}
        rehypePlugins={[
          [rehypeSanitize, schema],
          [rehypeKatex, { trust: false, strict: "ignore" }],
        ]}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
