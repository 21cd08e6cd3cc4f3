import { z } from "zod";

/** A revision number in a query string or body: digits only, so "", "1.5", "-1" and "1e3" are 400s. */
export const revisionParam = z
  .union([z.number(), z.string()], { error: "is required" })
  .transform(String)
  .pipe(z.string().regex(/^\d{1,9}$/, "must be a whole number >= 0 (a revision)"))
  .transform(Number);
