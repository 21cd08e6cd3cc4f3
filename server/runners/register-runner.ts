import "server-only";
import type { Store } from "@/db/client";
import {
  countRunnersOfToken,
  deleteStaleRunners,
  getRunnerByNameAndHost,
  insertRunner,
  lockRunnerToken,
  reRegisterRunner,
} from "@/db/queries/runners";
import type { RunnerToken } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { RegisterRequest } from "@/lib/runner/protocol";

/**
 * How registrations are bounded, as GitHub's and Buildkite's runners are:
 * - a runner registering again with the same name on the same host (a restart, a crash loop) gets
 *   its row back, as GitHub's `config.sh --replace` does: restarts never add runners;
 * - a runner not heard from for an hour that runs no job is removed, as Buildkite drops lost
 *   agents and GitHub removes offline runners (its attempts keep its name);
 * - one token holds at most 64 runners (a fleet sharing a token: the Kubernetes Deployment scales
 *   to 8); beyond that a registration is a 429 whose Retry-After says when its oldest runner turns
 *   stale. So one token, leaked or looping, cannot fill /runners and push the real runners out.
 */
export const RUNNER_REGISTRATION = { maxRunnersPerToken: 64, staleAfterS: 60 * 60 } as const;

/** A runner process says who it is and what it has (GPUs, CPUs, memory, backend); it gets its id. */
export async function registerRunner(
  store: Store,
  token: RunnerToken,
  body: RegisterRequest,
): Promise<{ runnerId: string }> {
  const { maxRunnersPerToken, staleAfterS } = RUNNER_REGISTRATION;
  return store.db.transaction(async (tx) => {
    await lockRunnerToken(tx, token.id);
    await deleteStaleRunners(tx, staleAfterS);
    const same = await getRunnerByNameAndHost(tx, token.id, body.name, body.capabilities.hostname ?? null);
    if (same) {
      await reRegisterRunner(tx, same.id, body.capabilities);
      return { runnerId: same.id };
    }
    const held = await countRunnersOfToken(tx, token.id, staleAfterS);
    if (held.count >= maxRunnersPerToken) {
      throw new AppError(
        "too_many_requests",
        `This runner token already holds ${held.count} runners (at most ${maxRunnersPerToken}): stop some, reuse a runner's name on its host, or give these machines a token of their own`,
        [{ path: "name", message: "one runner too many for this token" }],
        held.oldestStaleInS,
      );
    }
    const runner = await insertRunner(tx, { tokenId: token.id, name: body.name, capabilities: body.capabilities });
    return { runnerId: runner.id };
  });
}
