import { z } from "zod";
import { text } from "@/lib/text";

/**
 * The rule for paper ids in words, as the New paper form's hint states it and the schema's refusal
 * repeats it: one text, so the hint cannot drift from what the server accepts.
 */
export const PAPER_ID_RULE = "lower-case letters and digits, in words joined by one - _ or . (at most 100 characters)";

/** PaperBench paper ids are slugs: `pinn`, `all-in-one`, `stay-on-topic-with-classifier-free-guidance`. */
export const paperIdSchema = z
  .string()
  .trim()
  .min(1, "is required")
  .max(100, "must be at most 100 characters")
  .regex(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/, `must be a slug: ${PAPER_ID_RULE}`);

const markdown = (label: string) => text().max(2_000_000, `${label} must be at most 2 MB`);

/** One URL a line, as PaperBench's blacklist.txt; the form and the API send it as text. */
export const blacklistTextSchema = text()
  .max(100_000, "must be at most 100,000 characters")
  .transform((text) =>
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#") && line.toLowerCase() !== "none"),
  );

/** A paper's editable fields, without defaults (see `paperUpdateSchema`). */
const paperFields = {
  title: text().trim().min(1, "is required").max(300, "must be at most 300 characters"),
  paperMarkdown: markdown("paper text"),
  addendum: markdown("addendum"),
  judgeAddendum: markdown("judge addendum"),
  blacklist: blacklistTextSchema,
};

/** A new paper: only the title is required, the texts and blacklist start empty. */
export const paperFieldsSchema = z.object({
  title: paperFields.title,
  paperMarkdown: paperFields.paperMarkdown.default(""),
  addendum: paperFields.addendum.default(""),
  judgeAddendum: paperFields.judgeAddendum.default(""),
  blacklist: paperFields.blacklist.default([]),
});

export const paperCreateSchema = paperFieldsSchema.extend({ id: paperIdSchema });
export type PaperCreateInput = z.output<typeof paperCreateSchema>;

/**
 * A PATCH changes only the fields it names. Built from the fields without their defaults: in zod 4
 * a default inside `.partial()` still fills a missing key, which emptied every text a PATCH left out.
 */
export const paperUpdateSchema = z.object(paperFields).partial();
export type PaperUpdateInput = z.output<typeof paperUpdateSchema>;

export const memberAddSchema = z.object({
  email: z.email("must be an email address").max(320),
  role: z.enum(["author", "grader"], { error: "must be author or grader" }),
});
export type MemberAddInput = z.output<typeof memberAddSchema>;
