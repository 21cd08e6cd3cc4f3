/** How the lab shows its numbers. */
export const f2 = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x.toFixed(2));
export const usd = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : x < 0.01 && x > 0 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`;
export const seconds = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : x < 90 ? `${x.toFixed(1)} s` : `${(x / 60).toFixed(1)} min`;
export const versionLabel = (v: number | null) => (v === null ? "unrecorded text" : `v${v}`);
