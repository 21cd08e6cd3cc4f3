import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LazyMarkdown, loadMarkdown } from "./lazy-markdown";
import { Markdown } from "./markdown";
import { loadKatex, MathText } from "./math-text";

const markdown = (source: string) => renderToStaticMarkup(createElement(Markdown, null, source));
const mathText = (text: string) => renderToStaticMarkup(createElement(MathText, { text }));

describe("Markdown math", () => {
  it("renders inline and display math with KaTeX", () => {
    const html = markdown("The residual $u_t + u u_x$ is\n\n$$\n\\int_0^1 f(x)\\,dx\n$$\n");
    expect(html).toContain('class="katex"');
    expect(html).toContain('class="katex-display"');
  });

  it("keeps prices as text", () => {
    const html = markdown("It costs $5 and $10.");
    expect(html).not.toContain("katex");
    expect(html).toContain("It costs $5 and $10.");
  });

  it("still strips raw HTML and refuses KaTeX's trusted commands", () => {
    const html = markdown('<img src=x onerror="alert(1)"> $\\href{javascript:alert(1)}{x}$');
    expect(html).not.toContain("onerror");
    // The TeX source stays in KaTeX's escaped annotation; no link is made of it.
    expect(html).not.toMatch(/href=/);
    expect(html).toContain("katex");
  });
});

describe("MathText", () => {
  it("shows a formula as its source until KaTeX has loaded, then rendered", async () => {
    expect(mathText("area $\\pi r^2$")).toBe("<span>area $\\pi r^2$</span>");
    await loadKatex();
    expect(mathText("area $\\pi r^2$")).toContain('class="katex"');
  });

  it("renders math and escapes the text around it", async () => {
    await loadKatex();
    const html = mathText("<b>bold</b> $\\alpha$");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain('class="katex"');
  });

  it("shows a formula KaTeX cannot parse instead of throwing, with its markup escaped", async () => {
    await loadKatex();
    const html = mathText("bad $\\frac{<script>$");
    expect(html).not.toContain("<script>");
    expect(html).toContain("katex-error");
  });
});

describe("LazyMarkdown", () => {
  const lazy = (source: string) => renderToStaticMarkup(createElement(LazyMarkdown, null, source));

  it("shows the text as written, escaped, until the renderer has loaded, then the rendered markdown", async () => {
    const source = "**bold** <img src=x onerror=alert(1)>\nnext line";
    const before = lazy(source);
    expect(before).toContain('data-testid="markdown-source"');
    expect(before).toContain("**bold** &lt;img src=x onerror=alert(1)&gt;\nnext line");
    await loadMarkdown();
    const after = lazy(source);
    expect(after).not.toContain("markdown-source");
    expect(after).toContain("<strong>bold</strong>");
    expect(after).not.toContain("onerror");
  });
});
