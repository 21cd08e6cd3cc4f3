import "server-only";
import type { Store } from "@/db/client";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { getLiveRubricRows } from "./read-rubric";

/**
 * The editor's rows (GET …/rubric/nodes) as a finished answer body, kept per rubric until its
 * revision moves. pinn's 2,551 rows are 2.3 MB of JSON: reading them, serialising them and
 * compressing them took most of an open's server time, for an answer that only changes with the
 * revision (every change bumps it: operations, imports, restores, lint dismissals). A hit costs the
 * one query that reads the revision. (Next.js compresses the answer; an answer made gzip here is
 * compressed a second time, its Content-Encoding dropped, so the bytes are kept uncompressed.)
 */
interface CachedAnswer {
  revision: number;
  json: Buffer;
}

/** Rubrics open in editors now; a few, each a couple of MB: the oldest goes first. */
const MAX_ENTRIES = 8;
const cache = new Map<string, CachedAnswer>();

function remember(key: string, answer: CachedAnswer): void {
  cache.delete(key);
  cache.set(key, answer);
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
}

async function buildAnswer(store: Store, paperId: string, canEdit: boolean) {
  const { rubricId, revision, nodes, dismissals } = await getLiveRubricRows(store, paperId);
  const json = Buffer.from(JSON.stringify({ rubricId, revision, canEdit, nodes, dismissals }));
  return { rubricId, revision, json };
}

/** The answer to GET …/rubric/nodes for a caller who may (or may not) edit. */
export async function liveRowsAnswer(store: Store, paperId: string, opts: { canEdit: boolean }): Promise<Response> {
  const rubric = await getRubricByPaperId(store.db, paperId);
  const key = rubric ? `${rubric.id}:${opts.canEdit}` : null;
  let answer = key ? cache.get(key) : undefined;
  if (!answer || answer.revision !== rubric?.revision) {
    const built = await buildAnswer(store, paperId, opts.canEdit);
    answer = { revision: built.revision, json: built.json };
    // Kept only when no change landed while the rows were read: the rows then match the revision
    // they are labelled with (a change in between labels newer rows with the older revision).
    const after = built.rubricId ? await getRubricByPaperId(store.db, paperId) : null;
    if (after && after.id === built.rubricId && after.revision === built.revision)
      remember(`${built.rubricId}:${opts.canEdit}`, answer);
  }
  return new Response(new Uint8Array(answer.json), { headers: { "content-type": "application/json" } });
}
