import type { z } from "zod";
import type { logChunkSchema } from "@/lib/runner/protocol";

export type LogChunk = z.infer<typeof logChunkSchema>;

/** The protocol's limit of chunks per request. */
const MAX_CHUNKS_PER_REQUEST = 100;

export interface LogStreamOptions {
  /** Sends chunks in order; resolves once the studio has them. Throwing makes the stream retry. */
  send(chunks: LogChunk[]): Promise<void>;
  /** Longest a line waits before it is sent (at most 1 s). */
  batchMs?: number;
  /** A chunk is cut at once when this much text is waiting. */
  maxChunkChars?: number;
  retryMs?: number;
  /** A failure the stream must not retry (a stale lease): it stops and reports it. */
  isFatal?(err: unknown): boolean;
  onFatal?(err: unknown): void;
}

/**
 * A job's live log: text batched into chunks numbered from 0, sent in order and re-sent until the
 * studio has them (it keeps a chunk sent twice once, by `seq`), so a lost answer loses no line.
 */
export class LogStream {
  private pending = "";
  private nextSeq = 0;
  private readonly unsent: LogChunk[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private stopped = false;
  private readonly batchMs: number;
  private readonly maxChunkChars: number;

  constructor(private readonly opts: LogStreamOptions) {
    this.batchMs = Math.min(opts.batchMs ?? 250, 1000);
    this.maxChunkChars = opts.maxChunkChars ?? 256 * 1024;
  }

  write(text: string): void {
    if (this.stopped || text === "") return;
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
      this.unsent.push({ seq: this.nextSeq++, text: this.pending.slice(0, this.maxChunkChars) });
      this.pending = this.pending.slice(this.maxChunkChars);
    }
    this.sending ??= this.drain().finally(() => {
      this.sending = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.unsent.length > 0 && !this.stopped) {
      const batch = this.unsent.slice(0, MAX_CHUNKS_PER_REQUEST);
      try {
        await this.opts.send(batch);
        this.unsent.splice(0, batch.length);
      } catch (err) {
        if (this.opts.isFatal?.(err)) {
          this.stop();
          this.opts.onFatal?.(err);
          return;
        }
        await new Promise((r) => setTimeout(r, this.opts.retryMs ?? 1000));
      }
    }
  }
}
