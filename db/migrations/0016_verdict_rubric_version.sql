-- The rubric version each verdict was made against: the grading's pin when it was made. A
-- re-grade after a rubric change re-pins the grading and keeps the verdicts that still stand, so
-- those name an older version than their grading's.
ALTER TABLE "grading_verdicts" ADD COLUMN "rubric_version_id" uuid;--> statement-breakpoint
UPDATE "grading_verdicts" AS v SET "rubric_version_id" = g."rubric_version_id" FROM "gradings" AS g WHERE g."id" = v."grading_id";--> statement-breakpoint
ALTER TABLE "grading_verdicts" ALTER COLUMN "rubric_version_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "grading_verdicts" ADD CONSTRAINT "grading_verdicts_rubric_version_id_rubric_versions_id_fk" FOREIGN KEY ("rubric_version_id") REFERENCES "public"."rubric_versions"("id") ON DELETE cascade ON UPDATE no action;
