import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-rules";

/** A signed-in user's own password change (the new password's rules are lib/auth/password-rules.ts). */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, "is required").max(MAX_PASSWORD_LENGTH),
  newPassword: z.string().max(MAX_PASSWORD_LENGTH),
});
