import "server-only";
import { LruMap } from "@/lib/lru";

/** A rendered page as it was answered: what a later visitor is sent instead of a new render. */
export interface PageCopy {
  status: number;
  headers: [string, string][];
  body: string;
  /** When it was rendered (the cache's clock). */
  at: number;
}

export interface PublicPageCacheOptions {
  /** How long a copy is sent before the page is rendered again. */
  ttlMs: number;
  /** How many pages (URLs) are kept; the least recently sent goes first. */
  capacity: number;
  /** A page larger than this (characters) is sent but not kept. */
  maxChars: number;
  now?: () => number;
}

/**
 * Pages that every signed-out visitor sees alike (the public leaderboard), kept for a moment: a
 * Next.js page costs the server its render (about 10 ms of CPU here, whatever the page holds), so
 * under many readers one process answers them in turn and each waits for all the renders before
 * it. A copy is kept `ttlMs`; while a page is being rendered, everyone else asking for it waits
 * for that render instead of starting their own. Only a 200 is kept.
 */
export class PublicPageCache {
  private readonly copies: LruMap<string, PageCopy>;
  private readonly rendering = new Map<string, Promise<PageCopy>>();
  private readonly now: () => number;

  constructor(private readonly opts: PublicPageCacheOptions) {
    this.copies = new LruMap(opts.capacity);
    this.now = opts.now ?? Date.now;
  }

  /**
   * The page for `key`: a copy young enough (`fresh: true`), else the one render in flight, else a
   * new one by `render`. A render that fails rejects every caller waiting on it and keeps nothing.
   */
  async get(key: string, render: () => Promise<Omit<PageCopy, "at">>): Promise<{ page: PageCopy; fresh: boolean }> {
    const copy = this.copies.get(key);
    if (copy && this.now() - copy.at < this.opts.ttlMs) return { page: copy, fresh: true };
    let inFlight = this.rendering.get(key);
    if (!inFlight) {
      inFlight = this.renderAndKeep(key, render);
      this.rendering.set(key, inFlight);
    }
    return { page: await inFlight, fresh: false };
  }

  private async renderAndKeep(key: string, render: () => Promise<Omit<PageCopy, "at">>): Promise<PageCopy> {
    const at = this.now();
    try {
      const page = { ...(await render()), at };
      if (page.status === 200 && page.body.length <= this.opts.maxChars) this.copies.set(key, page);
      return page;
    } finally {
      this.rendering.delete(key);
    }
  }
}
