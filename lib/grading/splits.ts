/**
 * PaperBench's splits (`splits/<name>.txt` in the data: one paper id a line), read from the data
 * rather than written into the code. Pure: reading the files is `server/papers/data-splits.ts`.
 */

/** Paper ids of a split file: one a line; blank lines and `#` comments ignored; repeats kept once. */
export function parseSplitText(text: string): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const id = raw.replace(/#.*$/, "").trim();
    if (id === "" || seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}
