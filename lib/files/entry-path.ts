/**
 * The one path-safety rule for everything the studio or the runner unpacks or walks: a submission
 * upload, a bulk upload, an ingested `runs/` folder, a manifest's paths, the runner's extraction and
 * the outputs a runner sends back. Pure; no Node built-ins.
 *
 * An entry's name is relative and goes only down: no absolute path (`/x`, `\x`, `C:`), no `..`
 * segment anywhere (not even `a/../b`, which stays inside only while `a` is not a link), no NUL or
 * control character, no lone surrogate, at most 4096 bytes with 255 per segment (Linux's limits).
 * A backslash counts as a separator, so a name is safe read either way.
 *
 * Links are kept (a submission may hold `latest -> run3`), but a symlink may only point down: its
 * target is relative with no `..` segment. Then every link resolves inside the tree whatever other
 * links it passes through (each step goes down from a folder that is itself inside), which a
 * lexical check of `..` cannot promise: `a -> sub/..` then `b -> a/..` looks inside and is the
 * tree's parent. A hard link names an entry from the archive's root, under the name rule.
 */

export const ENTRY_PATH_LIMITS = { maxPathBytes: 4096, maxSegmentBytes: 255 } as const;

/** What an archive entry is. A link carries its target: a symlink's relative to its folder, a hard link's to the archive's root. */
export type EntryKind =
  { kind: "file" | "directory" } | { kind: "symlink" | "hardlink"; target: string } | { kind: "other"; type: string };

export type EntryPathCheck = { ok: true; path: string } | { ok: false; reason: string };

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s).length;

// C0 controls (NUL included), DEL and C1 controls: names that hide themselves in a listing or a log.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function characterProblem(value: string): string | null {
  const control = CONTROL.exec(value);
  if (control) {
    const code = control[0].charCodeAt(0);
    return code === 0 ? "a NUL" : `a control character (U+${code.toString(16).toUpperCase().padStart(4, "0")})`;
  }
  if (LONE_SURROGATE.test(value)) return "a lone surrogate (not valid Unicode)";
  return null;
}

const isAbsolute = (p: string) => p.startsWith("/") || p.startsWith("\\") || /^[a-zA-Z]:/.test(p);

/**
 * The entry's name as a relative `/`-separated path without `.` or empty segments, or why it may
 * not be in a tree: the one check of every name, whatever reads or writes it.
 */
export function checkEntryPath(raw: string): EntryPathCheck {
  const chars = characterProblem(raw);
  if (chars) return { ok: false, reason: `has ${chars} in its path` };
  if (isAbsolute(raw)) return { ok: false, reason: "has an absolute path" };
  const parts: string[] = [];
  for (const seg of raw.split(/[/\\]/)) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") return { ok: false, reason: "has a .. segment in its path" };
    if (bytesOf(seg) > ENTRY_PATH_LIMITS.maxSegmentBytes)
      return { ok: false, reason: `has a name longer than ${ENTRY_PATH_LIMITS.maxSegmentBytes} bytes` };
    parts.push(seg);
  }
  if (parts.length === 0) return { ok: false, reason: "has no name" };
  const path = parts.join("/");
  if (bytesOf(path) > ENTRY_PATH_LIMITS.maxPathBytes)
    return { ok: false, reason: `has a path longer than ${ENTRY_PATH_LIMITS.maxPathBytes} bytes` };
  return { ok: true, path };
}

/** The normalized name, or null when the rule refuses it. */
export function normalizeEntryPath(raw: string): string | null {
  const checked = checkEntryPath(raw);
  return checked.ok ? checked.path : null;
}

/** Why a symlink's target breaks the rule (absolute, a `..` segment, no target, odd characters, too long), or null when it points down. */
export function symlinkTargetRefusal(target: string): string | null {
  if (target === "") return "is a link with no target";
  const chars = characterProblem(target);
  if (chars) return `is a link whose target has ${chars}`;
  if (isAbsolute(target))
    return `is a link to an absolute path (${quoteEntry(target)}): a link may only point down inside the tree`;
  if (target.split(/[/\\]/).includes(".."))
    return `is a link to ${quoteEntry(target)}, with a .. segment: a link may only point down inside the tree`;
  if (bytesOf(target) > ENTRY_PATH_LIMITS.maxPathBytes)
    return `is a link whose target is longer than ${ENTRY_PATH_LIMITS.maxPathBytes} bytes`;
  return null;
}

/**
 * Why an entry may not be in a tree that is going to be unpacked, read or run, or null when it may:
 * a name or a link target the rule refuses, or anything but files, folders and links. The tree's
 * root folder itself (`./`, as `tar -C dir .` writes it) is the only entry without a name.
 */
export function entryRefusal(rawPath: string, entry: EntryKind): string | null {
  const name = checkEntryPath(rawPath);
  if (!name.ok && !(entry.kind === "directory" && name.reason === "has no name")) return name.reason;
  if (entry.kind === "other") return `is a ${entry.type}, not a file, folder or link`;
  if (entry.kind === "symlink") return symlinkTargetRefusal(entry.target);
  if (entry.kind === "hardlink") {
    const target = checkEntryPath(entry.target);
    if (!target.ok) return `is a hard link to ${quoteEntry(entry.target)}, which ${target.reason}`;
  }
  return null;
}

/** An entry's name as a message shows it: quoted, control characters visible, at most 300 characters. */
export function quoteEntry(name: string): string {
  const shown = name.length > 300 ? `${name.slice(0, 300)}…` : name;
  return JSON.stringify(shown);
}
