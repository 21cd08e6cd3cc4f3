import Link from "next/link";
import { formatPercent } from "@/lib/leaderboard/format";
import { MATRIX_STAGES, type MatrixCell } from "@/lib/evaluations/matrix";
import { STAGE_STYLE, WARNING_ICON as Warning } from "./cell-style";
import { onMatrixKeyDown } from "./matrix-keys";

const key = (paperId: string, run: number) => `${paperId}\u0000${run}`;

/**
 * Papers × runs: each cell's stage (colour, icon and word) and score, a link to its grading (else
 * its submission). Tab walks the cells that link somewhere; arrow keys, Home and End move between
 * all cells.
 */
export function EvaluationMatrixGrid({ papers, runs, cells }: { papers: string[]; runs: number; cells: MatrixCell[] }) {
  const byKey = new Map(cells.map((c) => [key(c.paperId, c.run), c]));
  const runNumbers = Array.from({ length: runs }, (_, i) => i + 1);
  return (
    <section
      aria-labelledby="matrix-title"
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4"
      data-testid="evaluation-matrix"
    >
      <h2 id="matrix-title" className="text-base font-semibold">
        Papers × runs
      </h2>
      <div className="max-h-[70vh] overflow-auto">
        <table className="border-separate border-spacing-1 text-sm" onKeyDown={onMatrixKeyDown}>
          <thead>
            <tr>
              <th
                scope="col"
                className="sticky left-0 top-0 z-10 bg-white px-2 py-1 text-left font-medium text-zinc-500"
              >
                Paper
              </th>
              {runNumbers.map((run) => (
                <th
                  key={run}
                  scope="col"
                  className="sticky top-0 bg-white px-2 py-1 text-left font-medium text-zinc-500"
                >
                  Run {run}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {papers.map((paperId, row) => (
              <tr key={paperId}>
                <th
                  scope="row"
                  className="sticky left-0 bg-white px-2 py-1 text-left font-mono text-xs font-normal text-zinc-700"
                >
                  {paperId}
                </th>
                {runNumbers.map((run, col) => {
                  const cell = byKey.get(key(paperId, run));
                  return (
                    <td key={run}>
                      {cell ? <CellBox cell={cell} row={row} col={col} /> : <MissingCell row={row} col={col} />}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Legend />
    </section>
  );
}

function CellBox({ cell, row, col }: { cell: MatrixCell; row: number; col: number }) {
  const style = STAGE_STYLE[cell.stage];
  const href = cell.href.grading ?? cell.href.submission;
  const warn = cell.flagged || (cell.failure !== null && cell.stage === "counted");
  // A reproduction judged although reproduce.sh did not exit 0: its end, shown on the cell (in full in the label).
  const endedBadly = cell.reproduction !== null && !cell.reproduction.startsWith("reproduce.sh exited 0");
  const label = [
    `${cell.paperId}, run ${cell.run}: ${style.label}`,
    cell.score !== null ? formatPercent(cell.score) : null,
    cell.attempts > 1 ? `attempt ${cell.attempts}` : null,
    // Judged however it ended, so how reproduce.sh ended is said here.
    cell.reproduction,
    cell.failure?.reason ?? null,
    cell.flagged ? "flagged: blacklisted site in the agent's log" : null,
  ]
    .filter(Boolean)
    .join(" · ");
  const body = (
    <>
      <span className="flex items-center gap-1 text-xs font-medium">
        <style.Icon size={12} aria-hidden className={style.spin ? "animate-spin" : undefined} />
        {style.label}
        {warn && <Warning size={12} aria-hidden className="text-amber-600" />}
        {endedBadly && (
          <span
            className="ml-auto rounded bg-amber-100 px-1 font-mono text-[10px] text-amber-800"
            data-testid="cell-reproduction"
          >
            {cell.reproduction!.startsWith("timed out")
              ? "timeout"
              : (/exited (\d+)/.exec(cell.reproduction!)?.[0].replace("exited", "exit") ?? "no run")}
          </span>
        )}
      </span>
      <span className="font-mono text-xs tabular-nums" data-testid="cell-score">
        {cell.score !== null ? formatPercent(cell.score) : cell.attempts > 1 ? `try ${cell.attempts}` : " "}
      </span>
    </>
  );
  const common = {
    "data-row": row,
    "data-col": col,
    "data-testid": "matrix-cell",
    "data-paper": cell.paperId,
    "data-run": cell.run,
    "data-stage": cell.stage,
    "data-reproduction": cell.reproduction ?? undefined,
    "aria-label": label,
    title: label,
    className: `flex h-12 w-28 flex-col justify-center rounded-md px-2 ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ${style.className} ${href ? "hover:brightness-95" : ""}`,
  };
  return href ? (
    <Link href={href} {...common}>
      {body}
    </Link>
  ) : (
    <span tabIndex={-1} {...common}>
      {body}
    </span>
  );
}

/** A paper × run the matrix did not send (it sends every one): kept focusable so arrow keys cross it. */
function MissingCell({ row, col }: { row: number; col: number }) {
  return (
    <span
      tabIndex={-1}
      data-row={row}
      data-col={col}
      className="block h-12 w-28 rounded-md border border-dashed border-zinc-200"
      aria-label="no cell"
    />
  );
}

function Legend() {
  return (
    <ul
      className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600"
      aria-label="Legend"
      data-testid="matrix-legend"
    >
      {MATRIX_STAGES.map((stage) => {
        const s = STAGE_STYLE[stage];
        return (
          <li key={stage} className="flex items-center gap-1.5">
            <span
              className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-medium ring-1 ring-inset ${s.className}`}
            >
              <s.Icon size={11} aria-hidden /> {s.label}
            </span>
            {s.meaning}
          </li>
        );
      })}
      <li className="flex items-center gap-1.5">
        <Warning size={12} aria-hidden className="text-amber-600" /> counted as 0 by a policy, or flagged
      </li>
    </ul>
  );
}
