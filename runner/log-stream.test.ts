import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LogStream, type LogChunk } from "./log-stream";
import { SecretMasker } from "./secret-masker";

describe("LogStream", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("batches lines written close together into one chunk, sent within the batch time", async () => {
    const sent: LogChunk[][] = [];
    const stream = new LogStream({ send: async (c) => void sent.push(c), batchMs: 1000 });
    stream.write("a\n");
    stream.write("b\n");
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([[{ seq: 0, text: "a\nb\n" }]]);
    stream.write("c\n");
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent[1]).toEqual([{ seq: 1, text: "c\n" }]);
  });

  it("never waits longer than a second, whatever it is asked", async () => {
    const sent: LogChunk[][] = [];
    const stream = new LogStream({ send: async (c) => void sent.push(c), batchMs: 60_000 });
    stream.write("x");
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
  });

  it("cuts a chunk at once when the size limit is reached", async () => {
    const sent: LogChunk[][] = [];
    const stream = new LogStream({ send: async (c) => void sent.push(c), maxChunkChars: 4 });
    stream.write("0123456789");
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.flat()).toEqual([
      { seq: 0, text: "0123" },
      { seq: 1, text: "4567" },
      { seq: 2, text: "89" },
    ]);
  });

  it("re-sends unacknowledged chunks, in order and with the same seq, until the studio has them", async () => {
    const attempts: LogChunk[][] = [];
    let fail = 2;
    const stream = new LogStream({
      send: async (c) => {
        attempts.push(c);
        if (fail-- > 0) throw new Error("network down");
      },
      batchMs: 10,
      retryMs: 100,
    });
    stream.write("one\n");
    await vi.advanceTimersByTimeAsync(10);
    stream.write("two\n");
    await vi.advanceTimersByTimeAsync(10);
    const flushed = stream.flush();
    await vi.advanceTimersByTimeAsync(1000);
    await flushed;
    expect(attempts[0]).toEqual([{ seq: 0, text: "one\n" }]);
    expect(attempts.at(-1)).toEqual([
      { seq: 0, text: "one\n" },
      { seq: 1, text: "two\n" },
    ]);
    expect(attempts).toHaveLength(3);
  });

  it("stops at a fatal refusal (a stale lease) and reports it once", async () => {
    const fatal = new Error("stale");
    const onFatal = vi.fn();
    const send = vi.fn(async () => {
      throw fatal;
    });
    const stream = new LogStream({ send, isFatal: (e) => e === fatal, onFatal, batchMs: 10 });
    stream.write("x");
    await vi.advanceTimersByTimeAsync(5000);
    stream.write("y");
    await vi.advanceTimersByTimeAsync(5000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(onFatal).toHaveBeenCalledWith(fatal);
  });
});

describe("SecretMasker", () => {
  it("masks every secret and any studio token in a whole text", () => {
    const masker = new SecretMasker(["hf_secret", "", "sk-longer-secret"]);
    expect(masker.mask("a hf_secret b sk-longer-secret c rst_job_abc.def-1 d")).toBe("a *** b *** c *** d");
  });

  it("masks a secret cut between two pieces of output, holding back no more than it must", () => {
    const masker = new SecretMasker(["hf_secret"]);
    const out = [masker.push("token=hf_se"), masker.push("cret done\nnext "), masker.end()];
    expect(out.join("")).toBe("token=*** done\nnext ");
    expect(out.join("")).not.toContain("hf_se");
    expect(out[0]).toBe("token=");
    // A line that cannot be the start of a secret is not held back.
    expect(new SecretMasker(["hf_secret"]).push("working\n")).toBe("working\n");
  });

  it("passes output through at once when there are no secrets", () => {
    const masker = new SecretMasker([]);
    expect(masker.push("progress 10%")).toBe("progress 10%");
  });

  it("masks a secret fed one character at a time", () => {
    const secret = "s3cr3t-value";
    const masker = new SecretMasker([secret]);
    const text = `before ${secret} after ${secret}`;
    const out = [...text].map((c) => masker.push(c)).join("") + masker.end();
    expect(out).toBe("before *** after ***");
  });
});
