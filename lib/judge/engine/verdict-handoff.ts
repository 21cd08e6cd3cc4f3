import type { JudgeRunHooks, LeafVerdict } from "../engine-contract";

/**
 * Hands a run's verdicts to `hooks.onVerdict` without holding a call slot while each is stored: a
 * slot kept through the worker's database write (a group commit that waits for the one before it)
 * left a tenth or more of a run's model concurrency idle. The run still waits for every store
 * before it returns (`settle`), and once one has failed (a lost lease, a database error) it starts
 * no other leaf (`failed`) and rethrows that failure: no model call is paid for a verdict that
 * cannot be kept.
 */
export function verdictHandoff(hooks: JudgeRunHooks) {
  const pending = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  return {
    get failed(): boolean {
      return failure !== null;
    },
    hand(verdict: LeafVerdict): void {
      if (!hooks.onVerdict) return;
      const onVerdict = hooks.onVerdict;
      // Called at once, as before: a hook that aborts the run does so before the next leaf starts.
      const stored = (async () => onVerdict(verdict))()
        .catch((err: unknown) => {
          failure ??= { error: err };
        })
        .finally(() => pending.delete(stored));
      pending.add(stored);
    },
    /** Every verdict handed over is stored (or the first failure is thrown). */
    async settle(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
      if (failure) throw failure.error;
    },
  };
}
