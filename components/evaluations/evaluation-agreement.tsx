import { formatAgreement, type Agreement } from "@/lib/evaluations/agreement";

/** Judge–human agreement on the leaves sampled for human review: F1 with its bootstrap 95% interval. */
export function EvaluationAgreement({ agreement }: { agreement: Agreement }) {
  return (
    <section
      aria-labelledby="agreement-title"
      className="rounded-lg border border-zinc-200 bg-white p-4"
      data-testid="evaluation-agreement"
    >
      <h2 id="agreement-title" className="text-base font-semibold">
        Judge–human agreement
      </h2>
      <p className="mt-1 text-sm">
        <span className="font-medium" data-testid="agreement-text">
          {formatAgreement(agreement)}
        </span>{" "}
        <span className="text-zinc-500">
          (F1 of the judge against human reviewers, 95% interval {agreement.ciLow.toFixed(2)}–
          {agreement.ciHigh.toFixed(2)})
        </span>
      </p>
    </section>
  );
}
