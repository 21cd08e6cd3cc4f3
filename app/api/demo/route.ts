import { apiRoute } from "@/server/http/route";
import { parseJsonBody } from "@/server/http/body";
import { deleteDemo } from "@/server/demo/delete-demo";
import { deleteDemoRequestSchema } from "@/lib/demo/schemas";

/** Staff delete the demo (users, papers, agents and everything hanging off them) in one transaction. */
export const DELETE = apiRoute({ staff: true }, async ({ req, store }) => {
  await parseJsonBody(req, deleteDemoRequestSchema, 1024);
  return deleteDemo(store);
});
