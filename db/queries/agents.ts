import "server-only";
import { asc, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import type { Executor } from "../client";
import { agents, type Agent } from "../schema";

export interface AgentFields {
  name: string;
  model?: string | null;
  scaffold?: string | null;
  notes?: string;
}

export async function getAgentById(db: Executor, id: string): Promise<Agent | null> {
  const [agent] = await db.select().from(agents).where(eq(agents.id, id)).limit(1);
  return agent ?? null;
}

export async function getAgentByName(db: Executor, name: string): Promise<Agent | null> {
  const [agent] = await db.select().from(agents).where(eq(agents.name, name.trim())).limit(1);
  return agent ?? null;
}

export async function listAgents(db: Executor): Promise<Agent[]> {
  return db.select().from(agents).orderBy(asc(agents.name));
}

/** Creates an agent; 409 when the name is taken. */
export async function createAgent(db: Executor, input: AgentFields): Promise<Agent> {
  const [agent] = await db
    .insert(agents)
    .values(agentValues(input))
    .onConflictDoNothing({ target: agents.name })
    .returning();
  if (!agent)
    throw new AppError("conflict", `An agent named "${input.name.trim()}" already exists`, [
      { path: "name", message: "is taken" },
    ]);
  return agent;
}

/**
 * The agent with this name, created when new (an import names agents by name). Fields given for
 * an existing agent are left as they are: an import never rewrites an agent's description.
 */
export async function ensureAgentByName(db: Executor, input: AgentFields): Promise<{ agent: Agent; created: boolean }> {
  const [inserted] = await db
    .insert(agents)
    .values(agentValues(input))
    .onConflictDoNothing({ target: agents.name })
    .returning();
  if (inserted) return { agent: inserted, created: true };
  const agent = await getAgentByName(db, input.name);
  if (!agent) throw new Error(`Agent ${input.name} vanished after insert`);
  return { agent, created: false };
}

function agentValues(input: AgentFields) {
  const name = input.name.trim();
  if (!name) throw new AppError("bad_request", "An agent needs a name", [{ path: "agent", message: "is required" }]);
  return { name, model: input.model ?? null, scaffold: input.scaffold ?? null, notes: input.notes ?? "" };
}
