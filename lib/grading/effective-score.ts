/** A judge's (or an import's) verdict on one leaf. */
export interface LeafVerdictScore {
  score: number;
  valid: boolean;
}

/**
 * The one rule for what a leaf counts: a person's latest override, else the verdict's score when
 * the verdict is valid, else 0 (PaperBench scores an invalid or missing verdict as 0).
 */
export function effectiveLeafScore(
  override: number | null | undefined,
  verdict: LeafVerdictScore | null | undefined,
): number {
  if (override !== null && override !== undefined) return override;
  return verdict ? verdictLeafScore(verdict.score, verdict.valid) : 0;
}

/**
 * `effectiveLeafScore` of a verdict without an override, from its two fields (no object to
 * build: the aggregation calls it for every leaf).
 */
export function verdictLeafScore(score: number, valid: boolean): number {
  return valid ? score : 0;
}
