import type { Page, Request } from "@playwright/test";

/** Whether `req` is the router's fetch of a page (`?_rsc`: a prefetch or a client navigation). */
const isPageFetch = (req: Request) => new URL(req.url()).searchParams.has("_rsc");

/** The pages fetched by the router from the page at `from` (a pathname), collected as they go. */
export function fetchedFrom(page: Page, from: string): string[] {
  const fetched: string[] = [];
  page.on("request", (req) => {
    const referer = req.headers()["referer"];
    if (isPageFetch(req) && referer && new URL(referer).pathname === from) fetched.push(new URL(req.url()).pathname);
  });
  return fetched;
}

/** Resolves at the next fetch of the page at `pathname`. */
export function nextPageFetch(page: Page, pathname: string): Promise<Request> {
  return page.waitForRequest((req) => isPageFetch(req) && new URL(req.url()).pathname === pathname);
}
