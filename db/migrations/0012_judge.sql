CREATE TYPE "public"."judge_kind" AS ENUM('llm', 'dummy', 'random');--> statement-breakpoint
CREATE TYPE "public"."judge_mode" AS ENUM('efficient', 'paperbench');--> statement-breakpoint
CREATE TABLE "judge_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" "judge_kind" NOT NULL,
	"model" text NOT NULL,
	"base_url" text,
	"api_key_env" text,
	"reasoning_effort" text,
	"context_window" integer NOT NULL,
	"max_concurrency" integer NOT NULL,
	"requests_per_minute" integer,
	"tokens_per_minute" integer,
	"price_input_per_m" double precision NOT NULL,
	"price_cached_input_per_m" double precision NOT NULL,
	"price_output_per_m" double precision NOT NULL,
	"mode" "judge_mode" DEFAULT 'efficient' NOT NULL,
	"parse_model" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "judge_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"grading_id" uuid NOT NULL,
	"submission_id" uuid NOT NULL,
	"job_id" uuid,
	"config_id" uuid,
	"config" jsonb NOT NULL,
	"variant" "submission_variant" NOT NULL,
	"max_depth" integer,
	"leaves_total" integer DEFAULT 0 NOT NULL,
	"leaves_done" integer DEFAULT 0 NOT NULL,
	"leaves_invalid" integer DEFAULT 0 NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"cached_input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"reasoning_tokens" bigint DEFAULT 0 NOT NULL,
	"cost_usd" double precision DEFAULT 0 NOT NULL,
	"token_usage" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"estimate" jsonb,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "judge_configs" ADD CONSTRAINT "judge_configs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_runs" ADD CONSTRAINT "judge_runs_grading_id_gradings_id_fk" FOREIGN KEY ("grading_id") REFERENCES "public"."gradings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_runs" ADD CONSTRAINT "judge_runs_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_runs" ADD CONSTRAINT "judge_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_runs" ADD CONSTRAINT "judge_runs_config_id_judge_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."judge_configs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_runs" ADD CONSTRAINT "judge_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "judge_configs_name_key" ON "judge_configs" USING btree ("name");--> statement-breakpoint
CREATE INDEX "judge_runs_grading_idx" ON "judge_runs" USING btree ("grading_id");--> statement-breakpoint
CREATE INDEX "judge_runs_submission_idx" ON "judge_runs" USING btree ("submission_id");