/**
 * The small text files of a PaperBench paper folder: `config.yaml` (`id`, `title`) and
 * `blacklist.txt` (URLs an agent must not use). Pure; no Node built-ins.
 */
import { parse as parseYaml, YAMLParseError } from "yaml";
import { z } from "zod";
import { text } from "@/lib/text";

/** A config.yaml or blacklist.txt that cannot be read; `key` names the offending key, if any. */
export class PaperFolderError extends Error {
  readonly key?: string;
  readonly line?: number;
  readonly column?: number;
  constructor(message: string, details: { key?: string; line?: number; column?: number } = {}) {
    super(message);
    this.name = "PaperFolderError";
    this.key = details.key;
    this.line = details.line;
    this.column = details.column;
  }
}

export interface PaperConfig {
  id?: string;
  title?: string;
}

const paperConfigSchema = z.object({
  id: text({ error: "must be a string" }).optional(),
  title: text({ error: "must be a string" }).optional(),
});

/**
 * Parse `config.yaml`. Other keys are ignored; an empty file gives `{}`.
 * Throws `PaperFolderError` on a YAML syntax error (with line and column), when the document
 * is not a mapping, or when `id` / `title` is not a string (naming the key).
 */
export function parsePaperConfig(yamlText: string): PaperConfig {
  let data: unknown;
  try {
    data = parseYaml(yamlText);
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const pos = err.linePos?.[0];
      const reason = err.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
      const where = pos ? ` at line ${pos.line}, column ${pos.col}` : "";
      throw new PaperFolderError(`config.yaml: YAML syntax error${where}: ${reason}`, {
        line: pos?.line,
        column: pos?.col,
      });
    }
    throw err;
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new PaperFolderError("config.yaml: must be a mapping with the keys id and title");
  }
  const parsed = paperConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.path.map(String).join(".");
    throw new PaperFolderError(`config.yaml: ${key}: ${issue.message}`, { key });
  }
  const config: PaperConfig = {};
  if (parsed.data.id !== undefined) config.id = parsed.data.id;
  if (parsed.data.title !== undefined) config.title = parsed.data.title;
  return config;
}

/**
 * Parse `blacklist.txt`: one URL a line, trimmed. Blank lines and lines starting with `#` are
 * ignored, and so is a ` #` comment after a URL (URLs hold no spaces, so a `#fragment` stays).
 * A file whose only entry is `none` means no URL.
 */
export function parseBlacklist(text: string): string[] {
  const urls: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (line === "" || line.startsWith("#")) continue;
    urls.push(line);
  }
  if (urls.length === 1 && urls[0].toLowerCase() === "none") return [];
  return urls;
}

/** `blacklist.txt` text: one URL a line, or `none` when there is none; ends with a newline. */
export function formatBlacklist(urls: readonly string[]): string {
  const lines = urls.map((u) => u.trim()).filter((u) => u !== "");
  return (lines.length === 0 ? "none" : lines.join("\n")) + "\n";
}
