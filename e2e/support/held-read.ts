import type { Page } from "@playwright/test";

/**
 * Holds the page's first GET of `url` (a glob) after the server has answered it: `answered`
 * resolves then, and the answer reaches the page only at `deliver()`. Plays a read that was
 * answered before a change but arrives after the page heard of it (from the live feed, or from its
 * own change's answer: a loaded machine, a slow network); later reads pass straight through.
 */
export async function holdFirstRead(
  page: Page,
  url: string,
): Promise<{ answered: Promise<void>; deliver: () => void }> {
  let onAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (onAnswered = resolve));
  let deliver!: () => void;
  const delivered = new Promise<void>((resolve) => (deliver = resolve));
  let reads = 0;
  await page.route(url, async (route) => {
    if (route.request().method() !== "GET" || ++reads > 1) return route.continue();
    const response = await route.fetch();
    onAnswered();
    await delivered;
    await route.fulfill({ response });
  });
  return { answered, deliver };
}
