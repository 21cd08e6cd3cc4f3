import "server-only";
import type { Store } from "@/db/client";
import { insertRunner } from "@/db/queries/runners";
import type { RunnerToken } from "@/db/schema";
import type { RegisterRequest } from "@/lib/runner/protocol";

/** A runner process says who it is and what it has (GPUs, CPUs, memory, backend); it gets its id. */
export async function registerRunner(store: Store, token: RunnerToken, body: RegisterRequest): Promise<{ runnerId: string }> {
  const runner = await insertRunner(store.db, { tokenId: token.id, name: body.name, capabilities: body.capabilities });
  return { runnerId: runner.id };
}
