import { z } from "zod";

/** One open editor's id, made by the browser. */
export const presenceSessionSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, - or _");

const nodeKey = z.uuid({ error: "must be a node key (uuid)" }).nullable();

/** What an open editor says about itself: the node it has selected and the one it is editing. */
export const presenceUpdateSchema = z.strictObject({
  session: presenceSessionSchema,
  selectedKey: nodeKey,
  editingKey: nodeKey,
});
export type PresenceUpdate = z.infer<typeof presenceUpdateSchema>;

/** What an editor is told about another open editor (a browser tab): who, and where in the tree. */
export interface PresencePerson {
  /** One open editor (a browser tab): a person with two tabs is two sessions. */
  sessionId: string;
  userId: string;
  name: string;
  selectedKey: string | null;
  editingKey: string | null;
}
