import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { refetchAfterChange } from "./refetch-after-change";

/** A query whose reads the test answers one by one, each with what the "server" held when it was sent. */
function heldQuery() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  const queryKey = ["review", "p1"];
  let server = "draft";
  const reads: { sentWith: string; answer: () => void }[] = [];
  const observer = new QueryObserver<string>(client, {
    queryKey,
    queryFn: () =>
      new Promise<string>((resolve) => {
        const sentWith = server;
        reads.push({ sentWith, answer: () => resolve(sentWith) });
      }),
  });
  const seen: (string | undefined)[] = [];
  const unsubscribe = observer.subscribe((r) => seen.push(r.data));
  return {
    client,
    queryKey,
    reads,
    seen,
    change: (value: string) => (server = value),
    data: () => client.getQueryData<string>(queryKey),
    close: () => {
      unsubscribe();
      client.clear();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("refetchAfterChange", () => {
  let q: ReturnType<typeof heldQuery>;
  afterEach(() => q.close());

  it("reads again after a first read that was sent before the change", async () => {
    q = heldQuery();
    await settle();
    expect(q.reads).toHaveLength(1); // the observer's first read, still unanswered
    q.change("signed_off");
    const done = refetchAfterChange(q.client, q.queryKey);
    q.reads[0].answer();
    await settle();
    expect(q.reads).toHaveLength(2);
    expect(q.reads[1].sentWith).toBe("signed_off");
    q.reads[1].answer();
    await done;
    expect(q.data()).toBe("signed_off");
  });

  it("lets a read in flight finish and makes one more for every nudge meanwhile", async () => {
    q = heldQuery();
    await settle();
    q.reads[0].answer();
    await settle();
    expect(q.data()).toBe("draft");

    q.change("v2");
    const first = refetchAfterChange(q.client, q.queryKey); // nothing in flight: reads now
    await settle();
    expect(q.reads).toHaveLength(2);
    q.change("v3");
    const nudges = [refetchAfterChange(q.client, q.queryKey), refetchAfterChange(q.client, q.queryKey)];
    await settle();
    expect(q.reads).toHaveLength(2); // the read in flight was not cancelled
    q.reads[1].answer();
    await first;
    await settle();
    expect(q.seen).toContain("v2");
    expect(q.reads).toHaveLength(3);
    expect(q.reads[2].sentWith).toBe("v3");
    q.reads[2].answer();
    await Promise.all(nudges);
    expect(q.data()).toBe("v3");
    expect(q.reads).toHaveLength(3);
  });
});
