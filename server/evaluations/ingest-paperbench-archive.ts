import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { Store } from "@/db/client";
import { AppError } from "@/lib/errors";
import { evaluationPoliciesSchema } from "@/lib/evaluations/schemas";
import { agentNameSchema } from "@/lib/submissions/schemas";
import { text } from "@/lib/text";
import { writeBodyToFile } from "@/server/http/body";
import { extractCheckedArchive } from "@/server/submissions/extract-checked-archive";
import { submissionLimits } from "@/server/submissions/submission-limits";
import { ingestPaperBenchResults, type IngestResult } from "./ingest-paperbench-results";

/** The query of `POST /api/evaluations/ingest`: the agent, a name, and the policies as JSON. */
export const ingestQuerySchema = z.object({
  agent: agentNameSchema,
  name: text().trim().min(1, "is required").max(200, "must be at most 200 characters").optional(),
  policies: text()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON" });
        return z.NEVER;
      }
      const parsed = evaluationPoliciesSchema.safeParse(json);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
        });
        return z.NEVER;
      }
      return parsed.data;
    }),
});

/**
 * Ingests PaperBench's `runs/` folder sent as one archive (.tar.gz, .tar, .zip), streamed to a
 * temporary file (413 past the submission limit), checked entry by entry by the upload checks,
 * extracted, and ingested; everything temporary is removed after.
 */
export async function ingestPaperBenchArchiveRequest(
  store: Store,
  req: Request,
  userId: string,
): Promise<IngestResult> {
  const query = ingestQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
  const limits = submissionLimits();
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "rs-evaluation-"));
  try {
    const archive = path.join(dir, "runs-archive");
    const bytes = await writeBodyToFile(req, archive, limits.maxArchiveBytes);
    if (bytes === 0)
      throw new AppError("bad_request", "Send the runs folder as a .tar.gz, .tar or .zip body", [
        { path: "body", message: "is empty" },
      ]);
    const runsDir = path.join(dir, "runs");
    await fs.promises.mkdir(runsDir);
    await extractCheckedArchive(archive, "the runs archive", runsDir, limits, "body");
    await fs.promises.rm(archive);
    const { result } = await ingestPaperBenchResults(store, {
      runsDir,
      agent: query.agent,
      name: query.name,
      policies: query.policies,
      userId,
    });
    return result;
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
