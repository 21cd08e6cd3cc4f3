import "server-only";
import type { Store } from "@/db/client";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { LruMap } from "@/lib/lru";
import { getRubricRows } from "./read-rubric";

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
  json: Uint8Array<ArrayBuffer>;
}

/** Rubrics open in editors now; a few, each a couple of MB: the least recently asked for goes first. */
const cache = new LruMap<string, CachedAnswer>(8);

const encoder = new TextEncoder();
const jsonAnswer = (json: Uint8Array<ArrayBuffer>) =>
  new Response(json, { headers: { "content-type": "application/json" } });

/** The answer to GET …/rubric/nodes for a caller who may (or may not) edit. */
export async function liveRowsAnswer(store: Store, paperId: string, opts: { canEdit: boolean }): Promise<Response> {
  const { canEdit } = opts;
  const rubric = await getRubricByPaperId(store.db, paperId);
  if (!rubric)
    return jsonAnswer(
      encoder.encode(JSON.stringify({ rubricId: null, revision: 0, canEdit, nodes: [], dismissals: [] })),
    );
  const key = `${rubric.id}:${canEdit}`;
  const kept = cache.get(key);
  if (kept?.revision === rubric.revision) return jsonAnswer(kept.json);
  const { rubricId, revision, nodes, dismissals } = await getRubricRows(store, rubric);
  const json = encoder.encode(JSON.stringify({ rubricId, revision, canEdit, nodes, dismissals }));
  // Kept only when no change landed while the rows were read: the rows then match the revision
  // they are labelled with (a change in between labels newer rows with the older revision).
  const after = await getRubricByPaperId(store.db, paperId);
  if (after?.id === rubric.id && after.revision === rubric.revision) cache.set(key, { revision, json });
  return jsonAnswer(json);
}
