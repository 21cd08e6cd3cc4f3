import { z } from "zod";
import { text } from "@/lib/text";
import { requireJobAccess } from "@/server/access/job-access";
import { apiRoute } from "@/server/http/route";
import { readJobOutputFile, readJobOutputImage } from "@/server/reproductions/read-job-outputs";

const outputFilesQuerySchema = z
  .object({
    path: text().min(1).max(4096).optional(),
    image: text().min(1).max(4096).optional(),
  })
  .refine((q) => (q.path === undefined) !== (q.image === undefined), {
    path: ["path"],
    message: "name either path or image",
  });

/**
 * One file of a reproduction's outputs as the files viewer reads it (staff and the paper's
 * members; the listing is the job's outputs index): `?path=` its text, `?image=` an image's bytes. An image answers only as a raster
 * type (the studio's headers forbid sniffing it as anything else): nothing a reproduction wrote runs
 * as markup on the studio.
 */
export const GET = apiRoute<{ jobId: string }>({}, async ({ req, params, store, user }) => {
  const query = outputFilesQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const job = await requireJobAccess(store, user, params.jobId, "view");
  if (query.image) {
    const { bytes, contentType } = await readJobOutputImage(job, query.image);
    return new Response(new Uint8Array(bytes), {
      headers: { "content-type": contentType, "cache-control": "private, max-age=3600" },
    });
  }
  return readJobOutputFile(job, query.path!);
});
