import { test as base, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { SiteHeader, signIn } from "./pages";
import type { DemoUser } from "./users";
import { expect } from "@playwright/test";

export interface SignedIn {
  context: BrowserContext;
  page: Page;
}

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/**
 * A browser context of its own (own cookies), with the options of playwright.config.ts that a
 * context made by hand does not inherit: reduced motion (no spinner repainting every frame).
 */
export function newStudioContext(
  browser: Browser,
  baseURL: string | undefined,
  storageState?: StorageState,
): Promise<BrowserContext> {
  return browser.newContext({ baseURL, reducedMotion: "reduce", storageState });
}

/** A separate browser context (own cookies) signed in as `user` through the form; the caller closes it. */
export async function signedInContext(
  browser: Browser,
  user: DemoUser,
  baseURL: string | undefined,
): Promise<SignedIn> {
  const context = await newStudioContext(browser, baseURL);
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

/**
 * A context with a session cookie kept from an earlier sign-in, on the home page, while the studio
 * still takes that session (a spec may have signed the user out, changed the password or disabled
 * them: then null, and the caller signs in afresh).
 */
async function restoredContext(
  browser: Browser,
  user: DemoUser,
  baseURL: string | undefined,
  state: StorageState,
): Promise<SignedIn | null> {
  const context = await newStudioContext(browser, baseURL, state);
  const session = await context.request.get("/api/auth/session");
  const body = session.ok() ? ((await session.json().catch(() => null)) as { user?: { email?: string } } | null) : null;
  if (body?.user?.email !== user.email) {
    await context.close();
    return null;
  }
  const page = await context.newPage();
  await page.goto("/");
  await expect(new SiteHeader(page).currentUser).toContainText(user.name);
  return { context, page };
}

/**
 * `asUser(user)`: a page signed in as that user in its own context, on the home page, closed after
 * the test. Several users can be signed in side by side in one test. The form is filled once per
 * user and worker (the sign-in spec tests it); later contexts start from that session's cookie,
 * which spares each spec a sign-in per person it needs.
 */
export const test = base.extend<
  { asUser: (user: DemoUser) => Promise<Page> },
  { signInCookies: Map<string, StorageState> }
>({
  signInCookies: [async ({}, use) => use(new Map()), { scope: "worker" }],
  asUser: async ({ browser, baseURL, signInCookies }, use) => {
    const opened: BrowserContext[] = [];
    await use(async (user) => {
      const kept = signInCookies.get(user.email);
      const signedIn =
        (kept && (await restoredContext(browser, user, baseURL, kept))) ||
        (await signedInContext(browser, user, baseURL));
      opened.push(signedIn.context);
      signInCookies.set(user.email, await signedIn.context.storageState());
      return signedIn.page;
    });
    for (const context of opened) await context.close();
  },
});

export { expect };
