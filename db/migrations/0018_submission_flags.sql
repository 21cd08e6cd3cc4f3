ALTER TABLE "submissions" ADD COLUMN "flags" jsonb;--> statement-breakpoint
UPDATE "evaluations" SET "policies" = "policies" || '{"blacklisted": "zero"}'::jsonb WHERE NOT ("policies" ? 'blacklisted');
