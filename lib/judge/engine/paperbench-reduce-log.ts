/**
 * PaperBench's `reduce_log` (drain3 template clustering of similar lines), which efficient mode
 * applies to the log's head exactly as paperbench mode does. Stand-in until the port
 * (lib/judge/paperbench/reduce-log.ts) is merged: the head unreduced.
 */
export function paperbenchReduceLog(text: string): string {
  return text.split(/\r\n|\r|\n/).join("\n");
}
