import { z } from "zod";
import { text } from "@/lib/text";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-rules";

/** A signed-in user's own password change (the new password's rules are lib/auth/password-rules.ts). */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, "is required").max(MAX_PASSWORD_LENGTH),
  newPassword: z.string().max(MAX_PASSWORD_LENGTH),
});

/** A new personal API token: a label saying where it is used ("laptop CLI", "CI"). */
export const apiTokenCreateSchema = z.object({
  name: text().trim().min(1, "is required").max(100, "must be at most 100 characters"),
});
