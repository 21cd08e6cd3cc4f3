"use client";

/**
 * Syntax highlighting of submitted files with Shiki, loaded on first use (core, the JavaScript
 * regex engine, one theme, and each language when a file of it opens), so the review page's first
 * paint never waits for it. Shiki escapes the code it renders.
 */
import type { HighlighterCore, LanguageRegistration } from "shiki/core";
import { loadOnce } from "@/lib/load-once";

type LangModule = { default: LanguageRegistration[] };

const LANGS: Record<string, () => Promise<LangModule>> = {
  python: () => import("shiki/langs/python.mjs"),
  shellscript: () => import("shiki/langs/shellscript.mjs"),
  json: () => import("shiki/langs/json.mjs"),
  yaml: () => import("shiki/langs/yaml.mjs"),
  toml: () => import("shiki/langs/toml.mjs"),
  markdown: () => import("shiki/langs/markdown.mjs"),
  javascript: () => import("shiki/langs/javascript.mjs"),
  typescript: () => import("shiki/langs/typescript.mjs"),
  tsx: () => import("shiki/langs/tsx.mjs"),
  c: () => import("shiki/langs/c.mjs"),
  cpp: () => import("shiki/langs/cpp.mjs"),
  r: () => import("shiki/langs/r.mjs"),
  julia: () => import("shiki/langs/julia.mjs"),
  rust: () => import("shiki/langs/rust.mjs"),
  go: () => import("shiki/langs/go.mjs"),
  java: () => import("shiki/langs/java.mjs"),
  sql: () => import("shiki/langs/sql.mjs"),
  ini: () => import("shiki/langs/ini.mjs"),
  dockerfile: () => import("shiki/langs/dockerfile.mjs"),
  diff: () => import("shiki/langs/diff.mjs"),
  html: () => import("shiki/langs/html.mjs"),
  css: () => import("shiki/langs/css.mjs"),
};

const BY_EXTENSION: Record<string, string> = {
  py: "python",
  pyi: "python",
  sh: "shellscript",
  bash: "shellscript",
  zsh: "shellscript",
  json: "json",
  jsonl: "json",
  ipynb: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  md: "markdown",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  tsx: "tsx",
  jsx: "tsx",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  hpp: "cpp",
  cu: "cpp",
  r: "r",
  jl: "julia",
  rs: "rust",
  go: "go",
  java: "java",
  sql: "sql",
  ini: "ini",
  cfg: "ini",
  diff: "diff",
  patch: "diff",
  html: "html",
  css: "css",
};

/** The Shiki language of a file path, or null (shown as plain text). */
export function languageOf(path: string): string | null {
  const name = path.split("/").pop() ?? path;
  if (/^dockerfile$/i.test(name)) return "dockerfile";
  if (name === "reproduce.sh") return "shellscript";
  const ext = name.includes(".") ? name.split(".").pop()!.toLowerCase() : "";
  return BY_EXTENSION[ext] ?? null;
}

/** Files above this size are shown as plain text (highlighting a huge file would block the page). */
export const MAX_HIGHLIGHT_CHARS = 300_000;

// Each loaded once; a chunk that failed to load (a network blip) is tried again with the next file.
const getHighlighter = loadOnce(async (): Promise<HighlighterCore> => {
  const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, theme] = await Promise.all([
    import("shiki/core"),
    import("shiki/engine/javascript"),
    import("shiki/themes/github-light.mjs"),
  ]);
  return createHighlighterCore({ themes: [theme.default], langs: [], engine: createJavaScriptRegexEngine() });
});
const languageLoads = new Map<string, () => Promise<void>>();

/** The code as highlighted HTML (`<pre class="shiki">…`), or null when its language is unknown or it is too big. */
export async function highlightCode(code: string, path: string): Promise<string | null> {
  const lang = languageOf(path);
  if (!lang || code.length > MAX_HIGHLIGHT_CHARS) return null;
  const hl = await getHighlighter();
  let loadLanguage = languageLoads.get(lang);
  if (!loadLanguage) {
    loadLanguage = loadOnce(() => LANGS[lang]().then((m) => hl.loadLanguage(...m.default)));
    languageLoads.set(lang, loadLanguage);
  }
  await loadLanguage();
  return hl.codeToHtml(code, { lang, theme: "github-light" });
}
