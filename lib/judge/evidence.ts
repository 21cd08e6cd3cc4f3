import type { Evidence } from "./engine-contract";

/** Where a verdict rests, from its `judge_metadata.evidence` (the studio's judge); [] when it has none. */
export function evidenceOf(judgeMetadata: unknown): Evidence[] {
  if (!judgeMetadata || typeof judgeMetadata !== "object" || Array.isArray(judgeMetadata)) return [];
  const list = (judgeMetadata as { evidence?: unknown }).evidence;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (e): e is Evidence =>
      !!e &&
      typeof e === "object" &&
      typeof e.path === "string" &&
      Number.isInteger(e.start_line) &&
      Number.isInteger(e.end_line) &&
      e.start_line >= 1,
  );
}

/** A file opened at lines (an evidence link): `seq` tells a second click on the same link from the first. */
export interface FileTarget {
  path: string;
  startLine: number;
  endLine: number;
  seq: number;
}
