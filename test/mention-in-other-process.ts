// Test helper run as a separate process (a second studio instance): a comment on the given
// PostgreSQL database that @mentions someone (the service notifies and announces it), then exits.
import { openDatabase } from "@/db/client";
import { startCommentThread } from "@/server/comments/start-comment-thread";

const [databaseUrl, paperId, nodeKey, userId, mentionedEmail] = process.argv.slice(2);
const handle = await openDatabase({ databaseUrl });
await startCommentThread(handle, { paperId, nodeKey, body: `From the other instance, @${mentionedEmail}`, userId });
await handle.close();
