import { formatBytes } from "@/lib/bytes";

/** A job's whole log, by default: Buildkite's limit. `--max-log-bytes` / RUNNER_MAX_LOG_BYTES change it. */
export const DEFAULT_MAX_LOG_BYTES = 1024 ** 3;

/**
 * A limit on how much of a text that keeps growing is kept (a job's live log, its reproduce.log, a
 * command's captured output), in UTF-8 bytes. `take` answers the part of each new piece within the
 * limit; the piece that reaches it is cut (on a character) and followed by one marker line saying
 * so, and everything after it is dropped. So careless output costs at most the limit, never the job.
 */
export class LogCap {
  private bytes = 0;
  private reached = false;
  /** Whether what was kept so far ends a line: the marker starts on a line of its own either way. */
  private atLineStart = true;

  constructor(
    readonly maxBytes: number,
    /** What is cut, for the marker: "the log", "reproduce.log". */
    private readonly what: string,
  ) {}

  get capped(): boolean {
    return this.reached;
  }

  take(text: string): string {
    if (this.reached || text === "") return "";
    const size = Buffer.byteLength(text);
    if (this.bytes + size <= this.maxBytes) {
      this.bytes += size;
      this.atLineStart = text.endsWith("\n");
      return text;
    }
    this.reached = true;
    // A streaming decode drops a character the cut splits rather than make it U+FFFD.
    const kept = new TextDecoder().decode(Buffer.from(text).subarray(0, this.maxBytes - this.bytes), { stream: true });
    this.bytes = this.maxBytes;
    const newline = (kept === "" ? this.atLineStart : kept.endsWith("\n")) ? "" : "\n";
    return `${kept}${newline}[runner] ${this.what} reached its limit of ${formatBytes(this.maxBytes)} here; the rest was cut\n`;
  }
}
