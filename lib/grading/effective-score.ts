/** A judge's (or an import's) verdict on one leaf. */
export interface LeafVerdictScore {
  score: number;
  valid: boolean;
}

/**
 * The one rule for what a leaf counts: a person's latest override, else the verdict's score when
 * the verdict is valid, else 0 (PaperBench scores an invalid or missing verdict as 0).
 */
export function effectiveLeafScore(override: number | null | undefined, verdict: LeafVerdictScore | null | undefined): number {
  if (override !== null && override !== undefined) return override;
  return verdict?.valid ? verdict.score : 0;
}
