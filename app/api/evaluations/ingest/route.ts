import { ingestPaperBenchArchiveRequest } from "@/server/evaluations/ingest-paperbench-archive";
import { apiRoute } from "@/server/http/route";
import { jsonAnswer } from "@/server/http/json-answer";

/**
 * Staff: PaperBench's `runs/` folder as one archive in the raw body (`?agent=…&name=…&policies=…`)
 * becomes an evaluation; answers what `npm run evaluation -- ingest` prints.
 */
export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  return jsonAnswer(await ingestPaperBenchArchiveRequest(store, req, user.id), { status: 201 });
});
