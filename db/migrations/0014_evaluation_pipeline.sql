ALTER TABLE "evaluations" ADD COLUMN "judge_config_id" uuid REFERENCES "judge_configs"("id") ON DELETE SET NULL;--> statement-breakpoint
CREATE TABLE "evaluation_cells" (
	"submission_id" uuid PRIMARY KEY NOT NULL REFERENCES "submissions"("id") ON DELETE CASCADE,
	"evaluation_id" uuid NOT NULL REFERENCES "evaluations"("id") ON DELETE CASCADE,
	"stage" text DEFAULT 'uploaded' NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"job_id" uuid REFERENCES "jobs"("id") ON DELETE SET NULL,
	"judge_run_id" uuid REFERENCES "judge_runs"("id") ON DELETE SET NULL,
	"failure_kind" text,
	"failure_reason" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "evaluation_cells_evaluation_idx" ON "evaluation_cells" ("evaluation_id");
