import type { z } from "zod";
import type { logChunkSchema } from "@/lib/runner/protocol";
import { DEFAULT_MAX_LOG_BYTES, LogCap } from "./log-cap";

export type LogChunk = z.infer<typeof logChunkSchema>;

/** A chunk waiting to be sent; `dropped` marks the one that stands for chunks dropped while the studio was away. */
type UnsentChunk = LogChunk & { dropped?: number };

/** The protocol's limit of chunks per request. */
const MAX_CHUNKS_PER_REQUEST = 100;
/**
 * Text per request: the logs route takes 8 MiB of JSON, and a character may take 6 bytes there
 * (a control character's `\u0001`), so a backlog goes in several requests, never one refused (413).
 */
const MAX_CHARS_PER_REQUEST = 1024 * 1024;

export interface LogStreamOptions {
  /** Sends chunks in order; resolves once the studio has them. Throwing makes the stream retry. */
  send(chunks: LogChunk[]): Promise<void>;
  /** Longest a line waits before it is sent (at most 1 s). */
  batchMs?: number;
  /** A chunk is cut at once when this much text is waiting. */
  maxChunkChars?: number;
  /** The job's whole log is cut here, with a marker line (default 1 GiB). */
  maxLogBytes?: number;
  /**
   * At most this much text waits unsent (the studio unreachable): past it, the oldest chunks after
   * the first are dropped and one marker chunk says how much (default 16 Mi characters).
   */
  maxUnsentChars?: number;
  retryMs?: number;
  /** A failure the stream must not retry (a stale lease): it stops and reports it. */
  isFatal?(err: unknown): boolean;
  onFatal?(err: unknown): void;
}

/**
 * A job's live log: text batched into chunks numbered from 0, sent in order and re-sent until the
 * studio has them (it keeps a chunk sent twice once, by `seq`), so a lost answer loses no line.
 * Bounded twice: the whole log by `maxLogBytes` (a marker line where it was cut), and what waits
 * unsent by `maxUnsentChars` (the middle dropped, a marker chunk in its place; seqs keep their order
 * with a gap), so neither careless output nor an unreachable studio grows the runner's memory.
 */
export class LogStream {
  private pending = "";
  private nextSeq = 0;
  private readonly unsent: UnsentChunk[] = [];
  private unsentChars = 0;
  /** How many chunks at the front of `unsent` are being sent now: those are never dropped or changed. */
  private inFlight = 0;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private stopped = false;
  private readonly batchMs: number;
  private readonly maxChunkChars: number;
  private readonly maxUnsentChars: number;
  private readonly cap: LogCap;

  constructor(private readonly opts: LogStreamOptions) {
    this.batchMs = Math.min(opts.batchMs ?? 250, 1000);
    this.maxChunkChars = opts.maxChunkChars ?? 256 * 1024;
    this.maxUnsentChars = Math.max(opts.maxUnsentChars ?? 16 * 1024 * 1024, 2 * this.maxChunkChars);
    this.cap = new LogCap(opts.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES, "the log");
  }

  write(text: string): void {
    if (this.stopped) return;
    text = this.cap.take(text);
    if (text === "") return;
    this.pending += text;
    if (this.pending.length >= this.maxChunkChars) this.cut();
    else this.timer ??= setTimeout(() => this.cut(), this.batchMs);
  }

  /** Sends everything written so far; resolves when the studio has it (or the stream stopped). */
  async flush(): Promise<void> {
    this.cut();
    while (this.sending) await this.sending;
  }

  /** Stops sending (a stale lease, or the job given up). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private cut(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.pending.length > 0) {
      let size = Math.min(this.maxChunkChars, this.pending.length);
      // Never between the two halves of a surrogate pair (an emoji): each chunk stays valid text.
      if (size < this.pending.length && isHighSurrogate(this.pending.charCodeAt(size - 1)) && size > 1) size--;
      this.unsent.push({ seq: this.nextSeq++, text: this.pending.slice(0, size) });
      this.unsentChars += size;
      this.pending = this.pending.slice(size);
    }
    this.dropMiddle();
    this.sending ??= this.drain().finally(() => {
      this.sending = null;
    });
  }

  /**
   * While more than `maxUnsentChars` wait: keeps the chunks being sent, the oldest one and the
   * newest, and folds the oldest of the others into one marker chunk (which takes the first
   * dropped chunk's seq, so it sits where they were).
   */
  private dropMiddle(): void {
    while (this.unsentChars > this.maxUnsentChars) {
      const at = Math.max(this.inFlight, 1);
      const marker = this.unsent[at];
      if (!marker || at >= this.unsent.length - 1) return;
      let dropped: number;
      if (marker.dropped === undefined) {
        dropped = marker.text.length;
      } else {
        if (at + 1 >= this.unsent.length - 1) return;
        const [gone] = this.unsent.splice(at + 1, 1);
        dropped = marker.dropped + gone.text.length;
        this.unsentChars -= gone.text.length;
      }
      this.unsentChars -= marker.text.length;
      marker.dropped = dropped;
      marker.text = `\n[runner] ${dropped} characters of the log were dropped here: the studio could not be reached and the runner keeps at most ${this.maxUnsentChars} unsent\n`;
      this.unsentChars += marker.text.length;
    }
  }

  private async drain(): Promise<void> {
    while (this.unsent.length > 0 && !this.stopped) {
      let size = 1;
      for (
        let chars = this.unsent[0].text.length;
        size < Math.min(this.unsent.length, MAX_CHUNKS_PER_REQUEST);
        size++
      ) {
        chars += this.unsent[size].text.length;
        if (chars > MAX_CHARS_PER_REQUEST) break;
      }
      const batch = this.unsent.slice(0, size);
      this.inFlight = batch.length;
      try {
        await this.opts.send(batch.map(({ seq, text }) => ({ seq, text })));
        this.unsent.splice(0, batch.length);
        for (const c of batch) this.unsentChars -= c.text.length;
      } catch (err) {
        if (this.opts.isFatal?.(err)) {
          this.stop();
          this.opts.onFatal?.(err);
          return;
        }
        await new Promise((r) => setTimeout(r, this.opts.retryMs ?? 1000));
      } finally {
        this.inFlight = 0;
      }
    }
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
