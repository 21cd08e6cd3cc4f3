/** Reads Server-Sent Events frames from a stream, in tests. */

export interface SseFrame {
  event: string;
  data: string;
  id: string | null;
}

export class SseReader {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private decoder = new TextDecoder();
  private buffer = "";
  private frames: SseFrame[] = [];

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  /**
   * The next frame that `match`es (frames before it are dropped). With no `timeoutMs` it waits as
   * long as the test runs (its timeout is the one bound); a `timeoutMs` is for a check that the
   * frame comes sooner than a slower path would bring it.
   */
  async next(match: (frame: SseFrame) => boolean = () => true, timeoutMs?: number): Promise<SseFrame> {
    const deadline = timeoutMs === undefined ? null : Date.now() + timeoutMs;
    for (;;) {
      while (this.frames.length > 0) {
        const frame = this.frames.shift()!;
        if (match(frame)) return frame;
      }
      const chunk = await (deadline === null
        ? this.reader.read()
        : Promise.race([
            this.reader.read(),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error("no matching event in time")), Math.max(0, deadline - Date.now())),
            ),
          ]));
      if (chunk.done) throw new Error("the stream ended");
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = this.buffer.indexOf("\n\n")) >= 0) {
        const text = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(text)?.[1];
        if (!event) continue; // a comment (keep-alive) or a bare retry
        this.frames.push({
          event,
          data: /^data: (.*)$/m.exec(text)?.[1] ?? "",
          id: /^id: (.+)$/m.exec(text)?.[1] ?? null,
        });
      }
    }
  }

  /** Every frame until the stream ends (those not yet read included); `timeoutMs` as for `next`. */
  async untilEnd(timeoutMs?: number): Promise<SseFrame[]> {
    const out: SseFrame[] = [];
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    for (;;) {
      try {
        out.push(await this.next(() => true, deadline === undefined ? undefined : deadline - Date.now()));
      } catch (err) {
        if ((err as Error).message === "the stream ended") return out;
        throw err;
      }
    }
  }

  /** The next `count` frames of one event type, parsed; bounded by the test's timeout alone. */
  async take<T>(event: string, count: number): Promise<T[]> {
    const out: T[] = [];
    while (out.length < count) out.push(JSON.parse((await this.next((f) => f.event === event)).data) as T);
    return out;
  }

  release(): void {
    this.reader.releaseLock();
  }
}
