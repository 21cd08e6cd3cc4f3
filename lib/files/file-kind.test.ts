import { describe, expect, it } from "vitest";
import { fileKindOf, imageTypeOf } from "./file-kind";

describe("how the files viewer shows a file", () => {
  it("by its extension: raster images, CSV, JSON, logs; anything else is text", () => {
    expect(["plot.PNG", "a/b.jpeg", "c.gif", "d.webp"].map(fileKindOf)).toEqual(["image", "image", "image", "image"]);
    expect(fileKindOf("results/out.csv")).toBe("csv");
    expect(fileKindOf("metrics.json")).toBe("json");
    expect(fileKindOf("train.log")).toBe("log");
    expect(fileKindOf("reproduce.log")).toBe("log");
    expect(fileKindOf("wagc.py")).toBe("text");
  });

  it("never takes markup for an image: HTML and SVG are text, and have no image type", () => {
    for (const path of ["evil.svg", "page.html", "x.htm", ".png", "png"]) {
      expect(fileKindOf(path), path).toBe("text");
      expect(imageTypeOf(path), path).toBeNull();
    }
    expect(imageTypeOf("fig.jpg")).toBe("image/jpeg");
  });
});
