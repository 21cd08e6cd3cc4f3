import { afterEach, describe, expect, it, vi } from "vitest";
import { RubricLiveEvents } from "./rubric-live-events";

/** The browser's EventSource, as far as the live events use it: the test plays the server. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  private handlers = new Map<string, ((e: { data: string }) => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(name: string, handler: (e: { data: string }) => void) {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
  }
  close() {
    this.closed = true;
  }
  serve(name: string, data: unknown) {
    for (const h of this.handlers.get(name) ?? []) h({ data: JSON.stringify(data) });
  }
}

describe("RubricLiveEvents", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("tells a listener that comes after an event the latest one at once, then each new one", () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    const live = new RubricLiveEvents();
    live.open("/events", () => {});
    const server = FakeEventSource.last!;
    server.serve("review", {});
    server.serve("presence", [{ sessionId: "a" }]);
    server.serve("presence", [{ sessionId: "b" }]);

    const review = vi.fn();
    const presence = vi.fn();
    const comments = vi.fn();
    live.on("review", review);
    live.on("presence", presence);
    live.on("comments", comments);
    expect(review).toHaveBeenCalledTimes(1);
    expect(presence.mock.calls).toEqual([[[{ sessionId: "b" }]]]);
    expect(comments).not.toHaveBeenCalled();

    server.serve("review", {});
    expect(review).toHaveBeenCalledTimes(2);
  });

  it("forgets the stream's events when it closes", () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    const live = new RubricLiveEvents();
    live.open("/events", () => {});
    FakeEventSource.last!.serve("review", {});
    live.close();
    const review = vi.fn();
    live.on("review", review);
    expect(review).not.toHaveBeenCalled();
  });
});
