import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LogCap } from "./log-cap";
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

describe("LogStream's bounds", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("cuts the whole log at its cap, on a character, with one marker line, and sends nothing after it", async () => {
    const sent: LogChunk[] = [];
    const stream = new LogStream({ send: async (c) => void sent.push(...c), maxLogBytes: 10, batchMs: 10 });
    stream.write("12345678");
    stream.write("é€xyz"); // 2 + 3 bytes: only é fits
    stream.write("more\n");
    await stream.flush();
    const text = sent.map((c) => c.text).join("");
    expect(text).toMatch(/^12345678é\n\[runner\] the log reached its limit of 10 B here; the rest was cut\n$/);
    expect(sent.map((c) => c.seq)).toEqual(sent.map((_, i) => i));
    // The marker has a line of its own, without a blank line before it.
    const capped = new LogCap(8, "the log");
    expect(capped.take("1234567\n") + capped.take("more")).toBe(
      "1234567\n[runner] the log reached its limit of 8 B here; the rest was cut\n",
    );
  });

  it("sends a backlog in requests of at most 1 Mi characters, so none is over the studio's body limit", async () => {
    const requests: LogChunk[][] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    const stream = new LogStream({
      send: async (c) => {
        requests.push(c);
        if (requests.length === 1) await first;
      },
    });
    // A fast writer: 40 chunks of 256 Ki characters pile up behind the first request.
    for (let i = 0; i < 41; i++) stream.write("x".repeat(256 * 1024));
    release();
    await stream.flush();
    for (const r of requests) expect(r.reduce((n, c) => n + c.text.length, 0)).toBeLessThanOrEqual(1024 * 1024);
    expect(requests.flat().map((c) => c.seq)).toEqual(Array.from({ length: 41 }, (_, i) => i));
  });

  it("never cuts a chunk between the halves of a surrogate pair", async () => {
    const sent: LogChunk[] = [];
    const stream = new LogStream({ send: async (c) => void sent.push(...c), maxChunkChars: 4 });
    stream.write("a😀😀😀");
    await stream.flush();
    for (const c of sent) expect(c.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    expect(sent.map((c) => c.text).join("")).toBe("a😀😀😀");
  });

  it("keeps at most its bound unsent while the studio is away: the oldest and newest kept, one marker for the middle, in seq order", async () => {
    let reachable = false;
    const sent: LogChunk[] = [];
    const attempts: LogChunk[][] = [];
    const stream = new LogStream({
      send: async (c) => {
        attempts.push(c);
        if (!reachable) throw new Error("studio down");
        sent.push(...c);
      },
      maxChunkChars: 10,
      maxUnsentChars: 40,
      retryMs: 1000,
    });
    for (let i = 0; i < 50; i++) stream.write(`line ${String(i).padStart(5, "0")}`); // 10 characters each: one chunk each
    await vi.advanceTimersByTimeAsync(0);
    // What the first attempt carried is sent as it was; the rest waits within the bound.
    expect(attempts[0].map((c) => c.seq)).toEqual([0]);
    for (let i = 50; i < 100; i++) stream.write(`line ${String(i).padStart(5, "0")}`);
    reachable = true;
    await vi.advanceTimersByTimeAsync(1000);
    await stream.flush();
    const text = sent.map((c) => c.text).join("");
    expect(text.startsWith("line 00000")).toBe(true);
    expect(text.endsWith("line 00099")).toBe(true);
    expect(text).toMatch(/\[runner\] \d+ characters of the log were dropped here: the studio could not be reached/);
    expect(text.match(/were dropped here/g)).toHaveLength(1);
    const seqs = sent.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    // The bound held: no attempt carried more than it (plus the marker's own words).
    for (const a of attempts) expect(a.reduce((n, c) => n + c.text.length, 0)).toBeLessThan(40 + 200);
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

  it("masks a value broken across lines, whichever line endings, keeping the breaks", () => {
    const secret = "hf_AbCdEfGhIjKl";
    const masker = new SecretMasker([secret]);
    expect(masker.mask(`key=hf_AbCdEf\nGhIjKl done`)).toBe("key=***\n*** done");
    expect(masker.mask(`hf_AbCd\r\nEfGh\rIjKl`)).toBe("***\r\n***\r***");
    // A multi-line value (a PEM key) printed with other line endings is found too.
    const pem = "-----BEGIN KEY-----\nMIIEvQIBADANBgkqh\n-----END KEY-----";
    expect(new SecretMasker([pem]).mask(pem.replace(/\n/g, "\r\n"))).not.toMatch(/MIIEvQ|BEGIN KEY/);
    // Lines that merely sit next to each other are left alone.
    expect(masker.mask("hf_Ab\nnothing")).toBe("hf_Ab\nnothing");
  });

  it("masks a value broken across lines and across pieces of output, and holds back no finished line that only ends like one", () => {
    const secret = "hf_AbCdEfGhIjKl";
    const masker = new SecretMasker([secret]);
    const pieces = ["token: hf_AbCd", "Ef\n", "GhIjKl\n", "after\n"];
    const out = pieces.map((p) => masker.push(p)).join("") + masker.end();
    expect(out).toBe("token: ***\n***\nafter\n");
    // A line ending in the secret's first letter or two is complete: it goes out at once.
    expect(new SecretMasker([secret]).push("loss=0.5 h\n")).toBe("loss=0.5 h\n");
    expect(new SecretMasker([secret]).push("see hf_\n")).toBe("see hf_\n");
  });

  it("masks every occurrence in a long text with many line breaks, and leaves a text without secrets as it was", () => {
    const secret = "s3cr3t-VALUE-42";
    const masker = new SecretMasker([secret]);
    const lines = Array.from({ length: 2000 }, (_, i) => (i % 100 === 0 ? `${i} s3cr3t-\nVALUE-42` : `line ${i}`)).join(
      "\n",
    );
    const masked = masker.mask(lines);
    expect(masked).not.toContain("VALUE-42");
    expect(masked.split("\n")).toHaveLength(lines.split("\n").length);
    expect(masker.mask("plain\ntext\r\n")).toBe("plain\ntext\r\n");
  });
});
