import { z } from "zod";
import { text } from "@/lib/text";

const body = text({ error: "must be text" })
  .trim()
  .min(1, "must not be empty")
  .max(10_000, "must be at most 10,000 characters");

/** A new thread on a node: its first comment. */
export const newThreadSchema = z.strictObject({
  nodeKey: z.uuid({ error: "must be a node key (uuid)" }),
  body,
});

/** A reply in a thread. */
export const replySchema = z.strictObject({ body });

/** Resolve or reopen a thread. */
export const threadStatusSchema = z.strictObject({ resolved: z.boolean({ error: "must be true or false" }) });
