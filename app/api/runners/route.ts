import { apiRoute } from "@/server/http/route";
import { listRunnersForStaff } from "@/server/runners/list-runners";

/** Registered runners with their capabilities, last contact and current jobs (staff). */
export const GET = apiRoute({ staff: true }, async ({ store }) => ({ runners: await listRunnersForStaff(store) }));
