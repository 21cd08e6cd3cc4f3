import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * sonner adds its styles as a <style> element when its module runs, which made the browser rebuild
 * its style rules after every page's first style pass; the patch (patches/sonner+2.0.8.patch) drops
 * that, and app/layout.tsx imports sonner/dist/styles.css with the page's CSS instead. This fails
 * when the patch is not applied.
 */
describe("sonner's styles", () => {
  const realDocument = (globalThis as { document?: unknown }).document;
  afterEach(() => {
    (globalThis as { document?: unknown }).document = realDocument;
    vi.resetModules();
  });

  it("are not added by sonner's script", async () => {
    const appended: unknown[] = [];
    (globalThis as { document?: unknown }).document = {
      head: { appendChild: (node: unknown) => appended.push(node) },
      getElementsByTagName: () => [],
      createElement: () => ({ appendChild: () => undefined }),
      createTextNode: (text: string) => ({ text }),
    };
    vi.resetModules();
    const sonner = await import("sonner");
    expect(typeof sonner.toast).toBe("function");
    expect(appended).toEqual([]);
  });
});
