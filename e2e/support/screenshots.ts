import type { Page, TestInfo } from "@playwright/test";

/**
 * Whether to take them: nobody looks at CI's, and there the 40 pairs cost about a minute of a loaded
 * machine, so CI skips them unless E2E_SCREENSHOTS=1; E2E_SCREENSHOTS=0 skips them anywhere.
 */
const TAKE = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS === "1" : !process.env.CI;

/** Screenshots at the two sizes the issues ask to check by eye (1440×900, 1024×768), kept with the test's output; the page is left at 1440×900. */
export async function screenshots(
  page: Page,
  testInfo: TestInfo,
  name: string,
  opts: { fullPage?: boolean } = {},
): Promise<void> {
  // Either way the page goes on at 1440×900, as the specs after a screenshot expect.
  if (!TAKE) return page.setViewportSize({ width: 1440, height: 900 });
  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: opts.fullPage ?? false });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
