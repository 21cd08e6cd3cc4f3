import { describe, expect, it } from "vitest";
import { PublicPageCache } from "./public-page-cache";

function setUp(opts: { ttlMs?: number; capacity?: number; maxChars?: number } = {}) {
  let now = 1_000;
  const cache = new PublicPageCache({ ttlMs: 250, capacity: 2, maxChars: 100, ...opts, now: () => now });
  let renders = 0;
  const page =
    (body: string, status = 200) =>
    async () => {
      renders++;
      return { status, headers: [["content-type", "text/html"]] as [string, string][], body: `${body} #${renders}` };
    };
  return { cache, page, renders: () => renders, advance: (ms: number) => (now += ms) };
}

describe("PublicPageCache", () => {
  it("sends the copy while it is young, and renders again once it is ttlMs old", async () => {
    const { cache, page, renders, advance } = setUp();
    const first = await cache.get("/leaderboard", page("board"));
    expect(first).toMatchObject({ fresh: false, page: { status: 200, body: "board #1" } });
    advance(249);
    expect(await cache.get("/leaderboard", page("board"))).toMatchObject({ fresh: true, page: { body: "board #1" } });
    advance(1);
    expect(await cache.get("/leaderboard", page("board"))).toMatchObject({ fresh: false, page: { body: "board #2" } });
    expect(renders()).toBe(2);
  });

  it("renders once for everyone who asks while the render is under way", async () => {
    const { cache } = setUp();
    let finish!: () => void;
    let calls = 0;
    const slow = () =>
      new Promise<{ status: number; headers: [string, string][]; body: string }>((resolve) => {
        calls++;
        finish = () => resolve({ status: 200, headers: [], body: "board" });
      });
    const waiting = [cache.get("/leaderboard", slow), cache.get("/leaderboard", slow), cache.get("/leaderboard", slow)];
    finish();
    const answers = await Promise.all(waiting);
    expect(calls).toBe(1);
    expect(answers.map((a) => a.page.body)).toEqual(["board", "board", "board"]);
  });

  it("keeps one copy per URL", async () => {
    const { cache, page } = setUp();
    await cache.get("/leaderboard?split=all", page("all"));
    await cache.get("/leaderboard?split=dev", page("dev"));
    expect((await cache.get("/leaderboard?split=all", page("all"))).page.body).toBe("all #1");
    expect((await cache.get("/leaderboard?split=dev", page("dev"))).page.body).toBe("dev #2");
  });

  it("drops the least recently sent URL beyond its capacity", async () => {
    const { cache, page, renders } = setUp({ capacity: 2 });
    await cache.get("/a", page("a"));
    await cache.get("/b", page("b"));
    await cache.get("/a", page("a"));
    await cache.get("/c", page("c"));
    expect(renders()).toBe(3);
    expect((await cache.get("/a", page("a"))).fresh).toBe(true);
    expect((await cache.get("/b", page("b"))).fresh).toBe(false);
  });

  it("sends but does not keep an answer other than 200, or a page over maxChars", async () => {
    const { cache, page, renders } = setUp({ maxChars: 20 });
    expect((await cache.get("/x", page("oops", 500))).page.status).toBe(500);
    expect((await cache.get("/x", page("oops", 500))).fresh).toBe(false);
    expect((await cache.get("/big", page("x".repeat(30)))).page.body).toHaveLength(33);
    expect((await cache.get("/big", page("x".repeat(30)))).fresh).toBe(false);
    expect(renders()).toBe(4);
  });

  it("keeps nothing from a render that failed: the next visitor renders again", async () => {
    const { cache, page } = setUp();
    await expect(cache.get("/leaderboard", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("/leaderboard", page("board"))).toMatchObject({ fresh: false, page: { body: "board #1" } });
  });
});
