import type { Page, TestInfo } from "@playwright/test";

/** Screenshots at the two sizes the issues ask to check by eye (1440×900, 1024×768), kept with the test's output; the page is left at 1440×900. */
export async function screenshots(
  page: Page,
  testInfo: TestInfo,
  name: string,
  opts: { fullPage?: boolean } = {},
): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: opts.fullPage ?? false });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
