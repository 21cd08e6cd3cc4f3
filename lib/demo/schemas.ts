import { z } from "zod";

/**
 * Deleting the demo cannot be undone, so the request carries the confirmation the dialog asked
 * for: a stray DELETE (a retried request, a script without it) is a 400 that deletes nothing.
 */
export const deleteDemoRequestSchema = z.object({
  confirm: z.literal(true, { error: "must be true: deleting the demo cannot be undone" }),
});
export type DeleteDemoRequest = z.infer<typeof deleteDemoRequestSchema>;
