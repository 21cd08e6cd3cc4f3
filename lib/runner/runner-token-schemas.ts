import { z } from "zod";
import { text } from "@/lib/text";

/** A runner token's label (`gpu-host-3`, `k8s runners`): what staff see when they revoke it. */
export const runnerTokenRequestSchema = z.object({
  name: text().trim().min(1, "is required").max(100, "must be at most 100 characters"),
});
