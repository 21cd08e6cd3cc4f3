/** An evaluation without a submission yet: the three ways to fill it. */
export function EvaluationEmpty({ evaluationId, agent, runs }: { evaluationId: string; agent: string; runs: number }) {
  const cli = `STUDIO_TOKEN=… npm run submission -- upload <archive | dir> --paper <paper id> --agent "${agent}" --run <1–${runs}> --evaluation ${evaluationId}`;
  return (
    <section
      className="space-y-3 rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-sm text-zinc-700"
      data-testid="evaluation-empty"
    >
      <h2 className="text-base font-semibold text-zinc-900">No submissions yet</h2>
      <p>
        Fill the matrix in any of these ways; each submission lands in its paper × run cell, and the pipeline reproduces
        and judges it.
      </p>
      <ul className="list-disc space-y-2 pl-5">
        <li>
          <span className="font-medium">Upload submissions</span> (above): a folder or archive shaped like
          PaperBench&apos;s run output (or PaperBench&apos;s own <code className="font-mono text-xs">runs/</code>{" "}
          results), or one run&apos;s submission with <span className="font-medium">Re-upload one run</span>.
        </li>
        <li>
          <span className="font-medium">From an agent harness</span>, one submission at a time:{" "}
          <code className="font-mono text-xs">
            POST /api/papers/&lt;paper id&gt;/submissions?agent=…&amp;run=…&amp;evaluation={evaluationId}
          </code>{" "}
          with the archive as the body, or the CLI:
          <pre
            className="mt-1 overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-xs"
            data-testid="evaluation-cli-hint"
          >
            {cli}
          </pre>
        </li>
      </ul>
    </section>
  );
}
