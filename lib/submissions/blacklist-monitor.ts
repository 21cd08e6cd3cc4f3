/**
 * PaperBench's rule: an agent may browse the web but not its paper's blacklisted sites (the
 * paper's `blacklist.txt`, usually the authors' repository). This monitor reads the agent's log
 * (`agent.log`) line by line and keeps every line that names a blacklisted URL or domain, with its
 * line number and the entry it hit. Pure, and fed one line at a time so a large log is never held.
 *
 * What counts as a hit, after normalising both sides (scheme dropped, host lower-cased, `www.`
 * dropped, trailing slash dropped, `\/` of JSON logs read as `/`, `git@host:path` as `host/path`):
 * - an entry without a path (`example.com`) is a domain: its host and every subdomain count;
 * - an entry with a path is a URL prefix: the same host (or a subdomain) with a path that starts
 *   with the entry's path at a segment boundary (`/`, `?`, `#`, `.git` or the end), compared without
 *   case (GitHub's owner and repository names are case-insensitive, and a monitor errs on the
 *   side of showing a line to a person);
 * - hosts are compared whole: `notgithub.com` is not `github.com`.
 */

export interface BlacklistRule {
  /** The entry as written in the blacklist. */
  entry: string;
  host: string;
  /** Lower-cased path without its trailing slash; "" for a domain entry. */
  path: string;
}

export interface BlacklistHit {
  /** 1-based line number in the log. */
  line: number;
  /** The line as it reads (cut at `MAX_LINE_CHARS`). */
  text: string;
  /** The blacklist entry it hit. */
  rule: string;
  /** The URL in the line that hit it. */
  url: string;
}

export interface BlacklistScan {
  /** Lines that hit, in order, at most `maxHits` of them. */
  hits: BlacklistHit[];
  /** Every line that hit, kept or not. */
  totalHits: number;
  /** Lines read. */
  lines: number;
}

/** What is stored on a submission whose agent's log was scanned (`submissions.flags`). */
export interface SubmissionFlags {
  blacklist: BlacklistScan & {
    /** Where the log came from: its path in the archive, or `agent.log` sent beside it. */
    log: string;
    /** The paper's blacklist at the time of the scan. */
    rules: string[];
    scannedAt: string;
  };
}

/** Whether a submission's flags count against it (a blacklisted site in its agent's log). */
export function isFlagged(flags: SubmissionFlags | null | undefined): boolean {
  return (flags?.blacklist.totalHits ?? 0) > 0;
}

/** How many matching lines a flag keeps, and how much of each: enough to show, bounded whatever the log. */
export const MONITOR_LIMITS = { maxHits: 50, maxLineChars: 500 } as const;

/** A host in a log: labels of letters, digits and hyphens, a dot-separated name ending in a letter label. */
const HOST = String.raw`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]`;
/**
 * A URL-like run in a line: an optional scheme, an optional `user@`, a host not glued to a
 * preceding host character, an optional port and the rest up to a space or a delimiter.
 */
const URL_PATTERN = new RegExp(
  String.raw`(?<![a-z0-9.\-])(?:[a-z][a-z0-9+.\-]*://)?(?:[^\s/@"'<>]+@)?(${HOST})(?::(\d{1,5}))?((?:[/?#:][^\s"'<>()\[\]{}\\,;` +
    "`" +
    String.raw`]*)?)`,
  "gi",
);

/** The blacklist's entries as rules; an entry that names no host is kept as a whole-word text rule. */
export function parseBlacklistRules(entries: readonly string[]): BlacklistRule[] {
  const rules: BlacklistRule[] = [];
  for (const entry of entries) {
    const trimmed = entry.trim();
    if (trimmed === "") continue;
    const found = firstUrl(trimmed);
    if (found) rules.push({ entry: trimmed, host: found.host, path: found.path });
    else rules.push({ entry: trimmed, host: "", path: trimmed.toLowerCase() });
  }
  return rules;
}

interface FoundUrl {
  url: string;
  index: number;
  host: string;
  path: string;
}

function normaliseHost(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h.startsWith("www.") ? h.slice(4) : h;
}

/** The path part, lower-cased, with an ssh `:` read as `/` and the trailing slashes dropped. */
function normalisePath(rest: string): string {
  let p = rest.toLowerCase();
  if (p.startsWith(":")) p = `/${p.slice(1)}`;
  const end = p.search(/[?#]/);
  const pathOnly = end === -1 ? p : p.slice(0, end);
  return pathOnly.replace(/\/+$/, "") + (end === -1 ? "" : p.slice(end));
}

function* urlsIn(line: string): Generator<FoundUrl> {
  URL_PATTERN.lastIndex = 0;
  for (let m = URL_PATTERN.exec(line); m !== null; m = URL_PATTERN.exec(line)) {
    // A port-less `host:rest` is an ssh address (`git@github.com:owner/repo`), a port a number.
    yield {
      url: m[0].replace(/[.)\]]+$/, ""),
      index: m.index,
      host: normaliseHost(m[1]),
      path: normalisePath((m[3] ?? "").replace(/[.)\]]+$/, "")),
    };
  }
}

function firstUrl(text: string): FoundUrl | null {
  for (const u of urlsIn(text.replace(/\\\//g, "/"))) return u;
  return null;
}

function hostMatches(host: string, ruleHost: string): boolean {
  return host === ruleHost || host.endsWith(`.${ruleHost}`);
}

/** Whether `path` is `prefix` or goes on past it at a segment boundary (`/`, `?`, `#`, `.git`). */
function pathMatches(path: string, prefix: string): boolean {
  if (prefix === "") return true;
  if (!path.startsWith(prefix)) return false;
  const next = path.slice(prefix.length);
  return next === "" || /^[/?#]/.test(next) || /^\.git(?:$|[/?#])/.test(next);
}

/** The first rule a line hits, with the URL that hit it, or null. */
export function matchLine(
  line: string,
  rules: readonly BlacklistRule[],
): { rule: string; url: string; index: number } | null {
  if (rules.length === 0) return null;
  const text = line.replace(/\\\//g, "/");
  for (const u of urlsIn(text)) {
    for (const r of rules) {
      if (r.host !== "" && hostMatches(u.host, r.host) && pathMatches(u.path, r.path))
        return { rule: r.entry, url: u.url, index: u.index };
    }
  }
  const lower = text.toLowerCase();
  for (const r of rules) {
    const index = r.host === "" ? wholeWordIndex(lower, r.path) : -1;
    if (index !== -1) return { rule: r.entry, url: text.slice(index, index + r.path.length), index };
  }
  return null;
}

function wholeWordIndex(haystack: string, needle: string): number {
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) {
    const before = i === 0 ? "" : haystack[i - 1];
    const after = haystack[i + needle.length] ?? "";
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return i;
  }
  return -1;
}

/** A line longer than this is scanned in windows as it streams in (a log with no newlines stays bounded). */
const MAX_PENDING_CHARS = 64 * 1024;
/** Each window keeps this much of the previous one, so a URL cut between two windows is still seen whole. */
const WINDOW_OVERLAP = 2048;

/**
 * A scan fed the log's text in chunks as it streams (`feed`, then `end`), or a line at a time
 * (`line`), then read (`result`). Memory stays bounded by the hits kept and one window of text.
 */
export class BlacklistMonitor {
  private readonly rules: BlacklistRule[];
  private readonly hits: BlacklistHit[] = [];
  private totalHits = 0;
  private lines = 0;
  private lastHitLine = 0;
  private pending = "";

  constructor(
    blacklist: readonly string[],
    private readonly limits: { maxHits: number; maxLineChars: number } = MONITOR_LIMITS,
  ) {
    this.rules = parseBlacklistRules(blacklist);
  }

  /** Whether there is anything to look for. */
  get active(): boolean {
    return this.rules.length > 0;
  }

  /** The next chunk of the log's text (lines may be cut anywhere between chunks). */
  feed(chunk: string): void {
    let text = this.pending + chunk;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n")) {
      this.line(text.slice(0, nl));
      text = text.slice(nl + 1);
    }
    if (text.length > MAX_PENDING_CHARS) {
      // Part of a line still being read: scanned now under its coming line number.
      this.check(this.lines + 1, text);
      text = text.slice(text.length - WINDOW_OVERLAP);
    }
    this.pending = text;
  }

  /** The end of the log: its last line, when it has no newline. */
  end(): void {
    if (this.pending !== "") this.line(this.pending);
    this.pending = "";
  }

  /** The next whole line of the log. */
  line(text: string): void {
    this.lines++;
    this.check(this.lines, text.endsWith("\r") ? text.slice(0, -1) : text);
  }

  private check(lineNumber: number, text: string): void {
    // A long line read in windows counts once, however many of its windows hit.
    if (lineNumber === this.lastHitLine) return;
    const hit = matchLine(text, this.rules);
    if (!hit) return;
    this.lastHitLine = lineNumber;
    this.totalHits++;
    if (this.hits.length < this.limits.maxHits) {
      this.hits.push({
        line: lineNumber,
        text: excerpt(text, hit.index, this.limits.maxLineChars),
        rule: hit.rule,
        url: hit.url,
      });
    }
  }

  result(): BlacklistScan {
    return { hits: [...this.hits], totalHits: this.totalHits, lines: this.lines };
  }
}

/** The line as shown: whole when short, else a window of it that holds the hit. */
function excerpt(text: string, index: number, max: number): string {
  if (text.length <= max) return text;
  const start = Math.max(0, Math.min(index - Math.floor(max / 4), text.length - max));
  return `${start > 0 ? "…" : ""}${text.slice(start, start + max)}${start + max < text.length ? "…" : ""}`;
}

/** Scans a whole log held as text (tests, small logs). */
export function scanLog(
  text: string,
  blacklist: readonly string[],
  limits: { maxHits: number; maxLineChars: number } = MONITOR_LIMITS,
): BlacklistScan {
  const monitor = new BlacklistMonitor(blacklist, limits);
  monitor.feed(text);
  monitor.end();
  return monitor.result();
}
