CREATE TABLE "rubric_lint_dismissals" (
	"rubric_id" uuid NOT NULL,
	"code" text NOT NULL,
	"node_key" text NOT NULL,
	"reason" text NOT NULL,
	"revision" integer NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rubric_lint_dismissals_rubric_id_code_node_key_pk" PRIMARY KEY("rubric_id","code","node_key")
);
--> statement-breakpoint
ALTER TABLE "rubric_lint_dismissals" ADD CONSTRAINT "rubric_lint_dismissals_rubric_id_rubrics_id_fk" FOREIGN KEY ("rubric_id") REFERENCES "public"."rubrics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_lint_dismissals" ADD CONSTRAINT "rubric_lint_dismissals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;