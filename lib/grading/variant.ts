import { z } from "zod";

/**
 * PaperBench's two ways of grading a submission: `full` (code, execution and results) and
 * `code-dev` (Code-Dev: only the code-development leaves count). The one declaration of the
 * variant; the database enum, request schemas and UI types all derive from it.
 */
export const VARIANTS = ["full", "code-dev"] as const;
export type Variant = (typeof VARIANTS)[number];
export const variantSchema = z.enum(VARIANTS);
