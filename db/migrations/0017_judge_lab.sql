-- The judge lab: a lab grading (a judge run started to compare configurations) is never counted
-- (leaderboard, evaluations, JudgeEval's judge side). A lab is configurations × human-labelled
-- submissions; each of its runs keeps the human grading it is compared with and the judge
-- addendum it ran with. Accepted judge-addendum texts are versions, not overwrites.
ALTER TABLE "gradings" ADD COLUMN "is_lab" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "paper_judge_addenda" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"paper_id" text NOT NULL,
	"version" integer NOT NULL,
	"text" text NOT NULL,
	"override_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "paper_judge_addenda" ADD CONSTRAINT "paper_judge_addenda_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "paper_judge_addenda" ADD CONSTRAINT "paper_judge_addenda_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "paper_judge_addenda_version_key" ON "paper_judge_addenda" USING btree ("paper_id","version");--> statement-breakpoint
CREATE TABLE "judge_labs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "judge_labs" ADD CONSTRAINT "judge_labs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "judge_lab_runs" (
	"judge_run_id" uuid PRIMARY KEY NOT NULL,
	"lab_id" uuid NOT NULL,
	"config_id" uuid,
	"config_name" text NOT NULL,
	"paper_id" text NOT NULL,
	"truth_grading_id" uuid NOT NULL,
	"addendum_version" integer,
	"judge_addendum" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "judge_lab_runs" ADD CONSTRAINT "judge_lab_runs_judge_run_id_judge_runs_id_fk" FOREIGN KEY ("judge_run_id") REFERENCES "public"."judge_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_lab_runs" ADD CONSTRAINT "judge_lab_runs_lab_id_judge_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."judge_labs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_lab_runs" ADD CONSTRAINT "judge_lab_runs_config_id_judge_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."judge_configs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_lab_runs" ADD CONSTRAINT "judge_lab_runs_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "judge_lab_runs" ADD CONSTRAINT "judge_lab_runs_truth_grading_id_gradings_id_fk" FOREIGN KEY ("truth_grading_id") REFERENCES "public"."gradings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "judge_lab_runs_lab_idx" ON "judge_lab_runs" USING btree ("lab_id");--> statement-breakpoint
CREATE INDEX "judge_lab_runs_paper_idx" ON "judge_lab_runs" USING btree ("paper_id");
