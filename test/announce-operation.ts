// Test helper run as a separate process (a second studio instance): applies one operation to a
// paper's rubric on the given PostgreSQL database and announces it, then exits.
import { openDatabase } from "@/db/client";
import { applyRubricOperation } from "@/db/queries/rubric-operations";
import { announceRubricRevision } from "@/server/live/rubric-feed";

const [databaseUrl, paperId, opJson] = process.argv.slice(2);
const handle = await openDatabase({ databaseUrl });
const result = await applyRubricOperation(handle.db, {
  paperId,
  userId: null,
  request: { clientOpId: `other-process-${Date.now()}`, baseRevision: 0, op: JSON.parse(opJson) },
});
await announceRubricRevision(handle.db, "postgres", paperId, result.revision);
await handle.close();
console.log(result.revision);
