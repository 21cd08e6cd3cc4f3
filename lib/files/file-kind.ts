/**
 * How the files viewer shows a file, by its name: a raster image (the only kind served as bytes,
 * with its own content type), a CSV table, JSON (pretty-printed), a log (plain, ANSI stripped), or
 * source text. HTML and SVG are source text: never markup from a submission or its outputs.
 */
export type FileKind = "image" | "csv" | "json" | "log" | "text";

/** The raster images a browser shows in `<img>` without running anything, by extension. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** The image content type of a path, or null when it is not one of `IMAGE_TYPES`. */
export function imageTypeOf(path: string): string | null {
  return IMAGE_TYPES[extensionOf(path)] ?? null;
}

export function fileKindOf(path: string): FileKind {
  const ext = extensionOf(path);
  if (ext in IMAGE_TYPES) return "image";
  if (ext === "csv") return "csv";
  if (ext === "json") return "json";
  if (ext === "log" || path === "reproduce.log") return "log";
  return "text";
}
