import { afterEach, describe, expect, it } from "vitest";
import { beginStopping, isStopping, requestStopLink } from "./stopping";

const global = globalThis as unknown as { __rubricStopping?: { links: Set<() => void> } };
/** Links still held by the process: each one an answer that has not ended. */
const held = () => global.__rubricStopping?.links.size ?? 0;

afterEach(() => {
  delete global.__rubricStopping;
});

describe("a request's stop link", () => {
  it("is not made for a handler that never reads the signal", () => {
    const link = requestStopLink(new AbortController().signal);
    const response = new Response("{}", { headers: { "content-type": "application/json" } });
    expect(link.settle(response)).toBe(response);
    expect(held()).toBe(0);
  });

  it("ends with a plain answer, so long polls answered one after another hold nothing", () => {
    let aborted = 0;
    for (let i = 0; i < 10_000; i++) {
      const link = requestStopLink(new AbortController().signal);
      if (link.signal.aborted) aborted++;
      link.settle(new Response(null, { status: 204 }));
    }
    expect(aborted).toBe(0);
    expect(held()).toBe(0);
  });

  it("holds a streamed answer until its body ends, with the same bytes", async () => {
    const link = requestStopLink(new AbortController().signal);
    void link.signal;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("event: a\n\n"));
        controller.enqueue(new TextEncoder().encode("event: b\n\n"));
        controller.close();
      },
    });
    const settled = link.settle(new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }));
    expect(held()).toBe(1);
    expect(settled.headers.get("content-type")).toBe("text/event-stream");
    expect(await settled.text()).toBe("event: a\n\nevent: b\n\n");
    expect(held()).toBe(0);
  });

  it("lets go of a streamed answer the client cancels", async () => {
    const link = requestStopLink(new AbortController().signal);
    let cancelled: unknown = null;
    const body = new ReadableStream<Uint8Array>({
      cancel(reason) {
        cancelled = reason;
      },
    });
    void link.signal;
    const settled = link.settle(new Response(body));
    await settled.body!.cancel("gone");
    expect(cancelled).toBe("gone");
    expect(held()).toBe(0);
  });

  it("aborts with the request, and lets go", () => {
    const request = new AbortController();
    const link = requestStopLink(request.signal);
    const signal = link.signal;
    request.abort(new Error("client went away"));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("client went away");
    expect(held()).toBe(0);
  });

  it("aborts every open link when the studio begins to stop, and any made after at once", () => {
    const open = [requestStopLink(new AbortController().signal), requestStopLink(new AbortController().signal)];
    const signals = open.map((link) => link.signal);
    const neverRead = requestStopLink(new AbortController().signal);
    expect(isStopping()).toBe(false);
    beginStopping();
    expect(isStopping()).toBe(true);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect((signals[0].reason as Error).message).toBe("the studio is stopping");
    expect(neverRead.signal.aborted).toBe(true);
    expect(requestStopLink(new AbortController().signal).signal.aborted).toBe(true);
    expect(held()).toBe(0);
  });
});
