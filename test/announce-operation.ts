// Test helper run as a separate process (a second studio instance): applies one operation to a
// paper's rubric on the given PostgreSQL database (the service announces it), then exits.
import { openDatabase } from "@/db/client";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";

const [databaseUrl, paperId, opJson] = process.argv.slice(2);
const handle = await openDatabase({ databaseUrl });
const result = await applyRubricOperation(handle, {
  paperId,
  userId: null,
  request: { clientOpId: `other-process-${Date.now()}`, baseRevision: 0, op: JSON.parse(opJson) },
});
await handle.close();
console.log(result.revision);
