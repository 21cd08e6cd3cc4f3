import "server-only";
import type { Store } from "@/db/client";
import { getLatestPaperAddendum, insertPaperAddendum, lockPaper, setPaperJudgeAddendum } from "@/db/queries/judge-lab";
import { AppError } from "@/lib/errors";
import type { AcceptAddendumRequest } from "@/lib/judge/lab/schemas";
import type { AddendumVersionView } from "@/lib/judge/lab/types";
import { listCalibrationOverrides } from "./calibration";

/**
 * Accepts judge-addendum text staff edited from the suggestions: a new version of the paper's
 * judge addendum (with the overrides it came from), which becomes the text the judge reads. Never
 * a silent overwrite: the text it replaces is kept as a version first when it is not one already
 * (the first acceptance, or an edit on the paper's page since), and an acceptance made from an
 * older version than the latest is refused (409) rather than dropping the other one.
 */
export async function acceptAddendum(
  store: Store,
  paperId: string,
  request: AcceptAddendumRequest,
  userId: string | null,
): Promise<{ before: string; after: AddendumVersionView }> {
  const known = new Set((await listCalibrationOverrides(store, paperId)).map((o) => o.id));
  request.overrideIds.forEach((id, i) => {
    if (!known.has(id))
      throw new AppError("bad_request", `Override ${id} is no override of the judge on this paper`, [
        { path: `overrideIds[${i}]`, message: "is not an override of this paper" },
      ]);
  });
  return store.db.transaction(async (tx) => {
    const paper = await lockPaper(tx, paperId);
    if (!paper) throw new AppError("not_found", "No such paper");
    const latest = await getLatestPaperAddendum(tx, paperId);
    const latestVersion = latest?.version ?? 0;
    if (request.baseVersion !== latestVersion) {
      throw new AppError(
        "conflict",
        `Version ${latestVersion} of the judge addendum was accepted meanwhile; reload and edit from it`,
        [{ path: "baseVersion", message: `is not the latest version (${latestVersion})` }],
      );
    }
    const before = paper.judgeAddendum;
    if (request.text === before)
      throw new AppError("bad_request", "text: the judge addendum already says this", [
        { path: "text", message: "is the current text" },
      ]);
    let version = latestVersion;
    if (!latest || latest.text !== before) {
      version++;
      await insertPaperAddendum(tx, {
        paperId,
        version,
        text: before,
        note: latest ? "the text as edited on the paper's page" : "the text before the first calibration",
        createdBy: null,
      });
    }
    const row = await insertPaperAddendum(tx, {
      paperId,
      version: version + 1,
      text: request.text,
      overrideIds: [...new Set(request.overrideIds)],
      note: request.note ?? "",
      createdBy: userId,
    });
    await setPaperJudgeAddendum(tx, paperId, request.text);
    return {
      before,
      after: {
        version: row.version,
        text: row.text,
        overrideIds: row.overrideIds,
        note: row.note,
        createdAt: row.createdAt.toISOString(),
        createdBy: row.createdBy,
      },
    };
  });
}
