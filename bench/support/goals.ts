/**
 * The speed budget's goals (issue 25): a figure named here must stay below (or above) its goal; any
 * other figure must stay within 10 % of the same figure on the commit it is compared with.
 */
export const GOALS: Record<string, { below: number } | { above: number }> = {
  editor_open_pinn_ms: { below: 300 },
  editor_edit_roundtrip_p95_ms: { below: 23 },
  review_open_pinn_ms: { below: 350 },
  leaderboard_page_p95_ms: { below: 200 },
  evaluation_overhead_ratio: { below: 1.3 },
};

/** How far a figure may move the wrong way against the earlier commit before the budget says so. */
export const TOLERANCE = 0.1;

/** Throughputs are better higher (`…_per_s`); times, ratios and errors lower. */
export function higherIsBetter(figure: string): boolean {
  return /_per_s$/.test(figure);
}

/** The word for one figure: its goal met or missed, else whether it held within the tolerance. */
export function verdictOf(figure: string, now: number, before: number | undefined): string {
  const goal = GOALS[figure];
  const goalWord = goal
    ? "below" in goal
      ? now < goal.below
        ? "goal met"
        : `goal missed (< ${goal.below})`
      : now > goal.above
        ? "goal met"
        : `goal missed (> ${goal.above})`
    : null;
  if (before === undefined || before === 0) return goalWord ?? "no earlier figure";
  const worse = higherIsBetter(figure) ? (before - now) / before : (now - before) / before;
  const drift = worse > TOLERANCE ? `${Math.round(worse * 100)} % worse` : worse < -TOLERANCE ? "better" : "held";
  return goalWord ? `${goalWord}; ${drift}` : drift;
}
