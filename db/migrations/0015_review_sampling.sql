ALTER TABLE "evaluations" ADD COLUMN "review_sample_size" integer;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "review_grader_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE TABLE "grading_review_samples" (
	"grading_id" uuid PRIMARY KEY NOT NULL,
	"evaluation_id" uuid NOT NULL,
	"user_id" uuid,
	"node_keys" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "grading_review_samples" ADD CONSTRAINT "grading_review_samples_grading_id_gradings_id_fk" FOREIGN KEY ("grading_id") REFERENCES "public"."gradings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_review_samples" ADD CONSTRAINT "grading_review_samples_evaluation_id_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."evaluations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_review_samples" ADD CONSTRAINT "grading_review_samples_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grading_review_samples_evaluation_idx" ON "grading_review_samples" USING btree ("evaluation_id");
