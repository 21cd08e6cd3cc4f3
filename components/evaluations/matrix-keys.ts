import type { KeyboardEvent } from "react";

const MOVES: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * Arrow keys between the matrix's cells (each a link or a focusable span carrying `data-row` and
 * `data-col`), Home/End to a row's first or last run: one handler on the table, so a cell needs
 * no handler of its own. Tab still walks the links in reading order.
 */
export function onMatrixKeyDown(e: KeyboardEvent<HTMLElement>): void {
  const from = (e.target as HTMLElement).closest<HTMLElement>("[data-row][data-col]");
  if (!from) return;
  const row = Number(from.dataset.row);
  const col = Number(from.dataset.col);
  let to: [number, number] | null = null;
  if (e.key in MOVES) to = [row + MOVES[e.key][0], col + MOVES[e.key][1]];
  else if (e.key === "Home") to = [row, 0];
  else if (e.key === "End") {
    const last = e.currentTarget.querySelectorAll(`[data-row="${row}"][data-col]`).length - 1;
    to = [row, last];
  }
  if (!to) return;
  const target = e.currentTarget.querySelector<HTMLElement>(`[data-row="${to[0]}"][data-col="${to[1]}"]`);
  if (!target) return;
  e.preventDefault();
  target.focus();
}
