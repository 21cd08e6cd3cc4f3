import { z } from "zod";
import { AppError } from "@/lib/errors";
import { secretValueSchema } from "@/lib/jobs/paper-settings";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { deletePaperSecret, setPaperSecret } from "@/server/papers/paper-secrets";

type Params = { paperId: string; name: string };

// 16 KiB of value, escaped as JSON (\uXXXX is six bytes for one) fits.
const MAX_BODY_BYTES = 128 * 1024;

export const PUT = apiRoute<Params>({ paper: "manage" }, async ({ req, store, paper, user, params }) => {
  const { value } = await readSecretBody(req);
  await setPaperSecret(store, { paperId: paper.id, name: params.name, value, userId: user.id });
  return { name: params.name, set: true };
});

export const DELETE = apiRoute<Params>({ paper: "manage" }, async ({ store, paper, params }) => {
  await deletePaperSecret(store, { paperId: paper.id, name: params.name });
  return { removed: params.name };
});

/** `{ value }`; a JSON parse error quotes the text it failed on, here the secret, so its message is replaced. */
async function readSecretBody(req: Request): Promise<{ value: string }> {
  try {
    return await parseJsonBody(req, z.object({ value: secretValueSchema }), MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof AppError && err.code === "bad_request") {
      throw new AppError("bad_request", 'The request body is not valid JSON: send {"value": "…"}', [
        { path: "value", message: "is not valid JSON" },
      ]);
    }
    throw err;
  }
}
