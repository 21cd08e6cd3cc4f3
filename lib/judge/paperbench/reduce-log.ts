/**
 * PaperBench's reproduce.log reduction (paperbench/judge/utils.py: `sanitize_line`, `reduce_log`),
 * ported to give the same text for the same log.
 */
import { Drain } from "./drain";
import { RE_DECIMAL as D, RE_SPACE as S, RE_WORD as W } from "./python-chars";
import { pythonSplitlines } from "./python-text";

// Python `re` str patterns are Unicode-aware: `\d` is any decimal digit, `\w` any letter or number,
// `\s` Python's whitespace. Every `\b` in these patterns sits next to a `\d` or a hex digit (word
// characters), so it is "the character on the other side is not a word character".
const notAfterWord = `(?<!${W})`;
const notBeforeWord = `(?!${W})`;

const ISO_TIMESTAMP = new RegExp(`${D}{4}-${D}{2}-${D}{2}T[0-9:.]+Z`, "gu");
const DATE = new RegExp(`${notAfterWord}${D}{4}-${D}{2}-${D}{2}${notBeforeWord}`, "gu");
const TIME = new RegExp(`${notAfterWord}${D}{2}:${D}{2}:${D}{2}${notBeforeWord}`, "gu");
const PROGRESS = [
  new RegExp(`${D}+%?\\|[█=]+`, "u"),
  /[KMG]?B\/s/u,
  new RegExp(`${D}+%${S}*\\|`, "u"),
  /[▏▎▍▌▋▊▉]{2,}/u,
];
const IP = new RegExp(`${notAfterWord}${D}{1,3}\\.${D}{1,3}\\.${D}{1,3}\\.${D}{1,3}${notBeforeWord}`, "gu");
const HEX = new RegExp(`${notAfterWord}[0-9a-fA-F]{8,}${notBeforeWord}`, "gu");

/** `sanitize_line`: timestamps, dates, times, progress bars, IPs and long hex runs become placeholders. */
export function sanitizeLine(line: string): string {
  line = line.replace(ISO_TIMESTAMP, "<TIMESTAMP>");
  line = line.replace(DATE, "<DATE>");
  line = line.replace(TIME, "<TIME>");
  if (PROGRESS.some((re) => re.test(line))) line = "<PROGRESS_BAR>";
  line = line.replace(IP, "<IP>");
  line = line.replace(HEX, "<HEX>");
  return line;
}

/**
 * `reduce_log`: each line (Python's `splitlines`) is sanitised and clustered by a fresh Drain miner;
 * a run of consecutive lines in one cluster keeps its first line, followed by
 * `  (repeated N times)`. The kept lines are the originals, not the sanitised ones.
 */
export function reduceLog(text: string): string {
  const miner = new Drain();
  const out: string[] = [];
  let previous: number | null = null;
  let repeat = 1;
  for (const line of pythonSplitlines(text)) {
    const clusterId = miner.addLogMessage(sanitizeLine(line)).cluster.clusterId;
    if (previous === null) {
      out.push(line);
      previous = clusterId;
      continue;
    }
    if (clusterId === previous) {
      repeat += 1;
    } else {
      if (repeat > 1) out.push(`  (repeated ${repeat} times)`);
      out.push(line);
      repeat = 1;
      previous = clusterId;
    }
  }
  if (previous !== null && repeat > 1) out.push(`  (repeated ${repeat} times)`);
  return out.join("\n");
}
