import { expect, test } from "@playwright/test";
import { HomePage, PaperPage, SignInPage, SiteHeader, signIn } from "./support/pages";
import { DEMO_PAPER, DEMO_USERS, STAFF } from "./support/users";

test.describe("sign-in", () => {
  for (const user of DEMO_USERS) {
    test(`${user.demoRole} signs in and sees the demo paper as ${user.demoRole}`, async ({ page }) => {
      await signIn(page, user);
      await expect(page).toHaveURL(/\/$/);
      const header = new SiteHeader(page);
      await expect(header.currentUser).toContainText(user.name);
      if (user.demoRole === "staff") await expect(header.currentUser).toContainText("staff");

      const home = new HomePage(page);
      const link = home.paperLink(DEMO_PAPER.id);
      await expect(link).toContainText(DEMO_PAPER.title);
      await expect(link).toContainText(user.demoRole);
      await link.click();

      const paper = new PaperPage(page, DEMO_PAPER.id);
      await expect(page).toHaveURL(new RegExp(`/papers/${DEMO_PAPER.id}$`));
      await expect(paper.title).toHaveText(DEMO_PAPER.title);
      await expect(paper.role).toHaveText(user.demoRole);
      await expect(paper.stats).toHaveText(DEMO_PAPER.stats);
    });
  }

  test("a wrong password shows an alert and does not sign in", async ({ page }) => {
    const signInPage = new SignInPage(page);
    await signInPage.goto();
    await signInPage.submit(STAFF.email, "not-the-password");
    await expect(signInPage.error).toHaveText("That email and password do not match an account.");
    await expect(page).toHaveURL(/\/signin\?/);
    await expect(new SiteHeader(page).currentUser).toHaveCount(0);

    // Nor does an unknown email.
    await signInPage.submit("nobody@demo.rubric.studio", STAFF.password);
    await expect(signInPage.error).toHaveText("That email and password do not match an account.");
    const res = await page.request.get(`/api/papers/${DEMO_PAPER.id}/rubric`);
    expect(res.status()).toBe(401);
  });

  test("the fifth wrong password in a row asks to wait instead of answering", async ({ page }) => {
    const signInPage = new SignInPage(page);
    // An account of its own (unknown emails are throttled like real ones), so no other test waits.
    const email = "throttled@demo.rubric.studio";
    for (let i = 1; i <= 4; i++) {
      // From a page without an alert, so that each answer is waited for.
      await signInPage.goto();
      await signInPage.submit(email, `wrong guess ${i}`);
      await expect(signInPage.error).toHaveText("That email and password do not match an account.");
    }
    await signInPage.goto();
    await signInPage.submit(email, "wrong guess 5");
    await expect(signInPage.error).toHaveText("Too many failed sign-in attempts. Try again in 1 s.");
    await expect(new SiteHeader(page).currentUser).toHaveCount(0);
  });

  test("signing in from a paper link returns to that paper", async ({ page }) => {
    await page.goto(`/papers/${DEMO_PAPER.id}`);
    await expect(page).toHaveURL(new RegExp(`/signin\\?callbackUrl=${encodeURIComponent(`/papers/${DEMO_PAPER.id}`)}`));
    await new SignInPage(page).submit(STAFF.email, STAFF.password);
    await expect(page).toHaveURL(new RegExp(`/papers/${DEMO_PAPER.id}$`));
    await expect(new PaperPage(page, DEMO_PAPER.id).title).toHaveText(DEMO_PAPER.title);
  });

  test("sign out ends the session", async ({ page }) => {
    await signIn(page, STAFF);
    const header = new SiteHeader(page);
    await header.signOut();
    await expect(header.signInLink).toBeVisible();
    await expect(header.currentUser).toHaveCount(0);
    await expect(page.getByTestId("paper-list")).toHaveCount(0);

    // The session cookie is gone: the API and the paper page treat the browser as signed out.
    const res = await page.request.get(`/api/papers/${DEMO_PAPER.id}/rubric`);
    expect(res.status()).toBe(401);
    await page.goto(`/papers/${DEMO_PAPER.id}`);
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  });
});
