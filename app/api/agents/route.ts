import { apiRoute } from "@/server/http/route";
import { listAgentChoices } from "@/server/gradings/import-grading";

/** The agents a grading import can name, by name (staff: they import gradings). */
export const GET = apiRoute({ staff: true }, async ({ store }) => ({ agents: await listAgentChoices(store) }));
