CREATE TABLE "evaluations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"agent_id" uuid NOT NULL,
	"split" text NOT NULL,
	"paper_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"runs" integer NOT NULL,
	"variant" "submission_variant" DEFAULT 'full' NOT NULL,
	"policies" jsonb NOT NULL,
	"aggregation" text DEFAULT 'mean' NOT NULL,
	"resources_provided" boolean DEFAULT false NOT NULL,
	"setup" jsonb NOT NULL,
	"is_human" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "evaluation_id" uuid;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "imported_result" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "executed_archive_sha256" text;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evaluations_agent_idx" ON "evaluations" USING btree ("agent_id");--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_evaluation_id_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."evaluations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_executed_archive_sha256_blobs_sha256_fk" FOREIGN KEY ("executed_archive_sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submissions_evaluation_idx" ON "submissions" USING btree ("evaluation_id");