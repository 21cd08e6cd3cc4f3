import "server-only";
import { z } from "zod";
import type { Executor, Store } from "@/db/client";
import { log } from "@/server/observability/log";
import { deletePaperSecretByName, listSealedPaperSecrets, upsertPaperSecret } from "@/db/queries/paper-secrets";
import { AppError } from "@/lib/errors";
import { secretNameSchema, secretNameShapeSchema, secretValueSchema } from "@/lib/jobs/paper-settings";
import { reservedEnvNameReason } from "@/lib/jobs/reserved-env-names";
import { SealError, sealSecret, unsealSecret } from "@/server/secrets/seal";

/**
 * A paper's secrets for reproduce.sh (`HF_TOKEN`). Values are sealed before they are stored and
 * leave the server only inside a claimed job of the paper; no answer, log or error carries one.
 */

const secretSchema = z.object({ name: secretNameSchema, value: secretValueSchema });

/** Sets (or replaces) a secret; a bad name or value is a ZodError naming `name` or `value` (a 400), never quoting the value. */
export async function setPaperSecret(
  store: Store,
  input: { paperId: string; name: string; value: string; userId: string | null },
): Promise<void> {
  const { name, value } = secretSchema.parse({ name: input.name, value: input.value });
  await upsertPaperSecret(store.db, {
    paperId: input.paperId,
    name,
    sealedValue: sealSecret(value),
    updatedBy: input.userId,
  });
}

/** 404 when the paper has no secret of that name. */
export async function deletePaperSecret(store: Store, input: { paperId: string; name: string }): Promise<void> {
  const name = z.object({ name: secretNameShapeSchema }).parse({ name: input.name }).name;
  if (!(await deletePaperSecretByName(store.db, input.paperId, name))) {
    throw new AppError("not_found", `This paper has no secret named ${name}`, [
      { path: "name", message: "no such secret" },
    ]);
  }
}

/**
 * The paper's secrets, opened, for the runner that claimed one of its jobs, less any stored under a
 * name that is now reserved (dropped with a log line, never its value). A secret sealed under
 * another AUTH_SECRET cannot be opened: the error names it, so staff know which one to set again.
 */
export async function readReproduceSecrets(db: Executor, paperId: string): Promise<Record<string, string>> {
  const secrets: Record<string, string> = {};
  for (const { name, sealedValue } of await listSealedPaperSecrets(db, paperId)) {
    const reserved = reservedEnvNameReason(name);
    if (reserved) {
      // Stored before such names were refused. Failing the job would hold every reproduction of the
      // paper hostage to a setting that never could work as meant; the job runs without it, the
      // paper page marks it "not passed to jobs", and staff remove it.
      log.warn(
        { paperId, secretName: name },
        `the secret ${name} is not passed to the paper's jobs: ${name} cannot be a secret because ${reserved}; remove it on the paper's settings`,
      );
      continue;
    }
    try {
      secrets[name] = unsealSecret(sealedValue);
    } catch (err) {
      if (!(err instanceof SealError)) throw err;
      throw new AppError(
        "conflict",
        `The secret ${name} of paper ${paperId} cannot be opened (AUTH_SECRET changed since it was set): set it again`,
        [{ path: name, message: err.message }],
      );
    }
  }
  return secrets;
}
