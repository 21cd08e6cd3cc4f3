import { test as base, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { signIn } from "./pages";
import type { DemoUser } from "./users";

export interface SignedIn {
  context: BrowserContext;
  page: Page;
}

/** A separate browser context (own cookies) signed in as `user`; the caller closes it. */
export async function signedInContext(
  browser: Browser,
  user: DemoUser,
  baseURL: string | undefined,
): Promise<SignedIn> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

/**
 * `asUser(user)`: a page signed in as that user in its own context, closed after the test.
 * Several users can be signed in side by side in one test.
 */
export const test = base.extend<{ asUser: (user: DemoUser) => Promise<Page> }>({
  asUser: async ({ browser, baseURL }, use) => {
    const opened: BrowserContext[] = [];
    await use(async (user) => {
      const { context, page } = await signedInContext(browser, user, baseURL);
      opened.push(context);
      return page;
    });
    for (const context of opened) await context.close();
  },
});

export { expect } from "@playwright/test";
