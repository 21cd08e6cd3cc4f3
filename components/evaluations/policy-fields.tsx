"use client";

import {
  FAILURE_KINDS,
  type EvaluationPolicies,
  type FailureKind,
  type FailurePolicy,
} from "@/lib/evaluations/schemas";

const KIND_LABELS: Record<string, string> = {
  reproduction_failed: "Nothing to judge: reproduction failed",
  reproduction_timed_out: "Nothing to judge: timed out",
  judge_invalid_leaves: "Judge left invalid leaves",
  blacklisted: "Agent used a blacklisted site",
};

const select = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm";

/** What counts when a cell fails, per failure kind: count as 0, exclude (the reason shown), or retry up to N. */
export function PolicyFields({
  value,
  onChange,
  errors,
}: {
  value: EvaluationPolicies;
  onChange(next: EvaluationPolicies): void;
  errors: (path: string) => string | undefined;
}) {
  const set = (kind: FailureKind, policy: FailurePolicy) => onChange({ ...value, [kind]: policy });
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-zinc-800">When a cell fails</legend>
      <p className="text-xs text-zinc-500">
        A reproduction that ran is judged however it ended (non-zero exit, timeout, no reproduce.sh), as PaperBench
        does. The reproduction policies apply only when nothing can be judged: the runner failed before reproduce.sh
        ran, or no outputs came back. The defaults (all &ldquo;count as 0&rdquo;) are PaperBench&rsquo;s.
      </p>
      {FAILURE_KINDS.map((kind) => {
        const policy = value[kind];
        const mode = typeof policy === "string" ? policy : "retry";
        const label = KIND_LABELS[kind] ?? kind;
        const error = errors(`policies.${kind}`) ?? errors(`policies.${kind}.retry`);
        return (
          <div key={kind} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="w-52 text-zinc-700">{label}</span>
            <select
              aria-label={`${label}: policy`}
              className={select}
              value={mode}
              onChange={(e) =>
                set(kind, e.target.value === "retry" ? { retry: 1 } : (e.target.value as "zero" | "exclude"))
              }
              data-testid={`policy-${kind}`}
            >
              <option value="zero">count as 0</option>
              <option value="exclude">exclude, reason shown</option>
              <option value="retry">retry up to N</option>
            </select>
            {typeof policy === "object" && (
              <label className="flex items-center gap-1">
                N
                <input
                  type="number"
                  min={1}
                  max={10}
                  className={`${select} w-16`}
                  value={policy.retry}
                  onChange={(e) => set(kind, { retry: Number(e.target.value) })}
                />
              </label>
            )}
            {error && (
              <span role="alert" className="text-xs text-red-700">
                {error}
              </span>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
