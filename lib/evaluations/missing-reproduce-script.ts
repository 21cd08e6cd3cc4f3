/**
 * Which runs of a picked bulk-upload folder lack `reproduce.sh` at their submission's root, told
 * before the upload: the reproduction of such a run fails ("reproduce.sh not found"), so its
 * execution and results leaves score 0. A warning, not a refusal: a Code-Dev run needs no script,
 * and the upload may mean it. Paths are relative to the picked folder, as the browser's folder
 * picker gives them. One folder's check is `hasReproduceScript` (`components/submissions/pack-folder.ts`). Pure.
 */
import { REPRODUCE_SH } from "@/lib/judge/engine/file-selection";

/**
 * The bulk upload's `<paper>/<run>/submission/` folders: each run (`paper/run`) whose submission
 * lacks the script, in order. Other layouts (archives, a manifest's paths) are not read here.
 */
export function runsWithoutReproduceScript(paths: readonly string[]): string[] {
  const runs = new Map<string, boolean>();
  for (const p of paths) {
    const m = /^([^/]+)\/([^/]+)\/submission\/(.+)$/.exec(p);
    if (!m) continue;
    const run = `${m[1]}/${m[2]}`;
    runs.set(run, (runs.get(run) ?? false) || m[3] === REPRODUCE_SH);
  }
  return [...runs]
    .filter(([, hasScript]) => !hasScript)
    .map(([run]) => run)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}
