-- A reviewer's "unsure" flag on a leaf (Label Studio's skip): the leaf stays unreviewed, flagged, with
-- the reviewer's note, until they (or staff) clear it. One per reviewer and leaf; it follows its
-- verdict (a re-pin re-keys it, a dropped verdict drops it).
CREATE TABLE "grading_unsure_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"grading_id" uuid NOT NULL,
	"node_key" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "grading_unsure_flags" ADD CONSTRAINT "grading_unsure_flags_grading_id_gradings_id_fk" FOREIGN KEY ("grading_id") REFERENCES "public"."gradings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_unsure_flags" ADD CONSTRAINT "grading_unsure_flags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_unsure_flags" ADD CONSTRAINT "grading_unsure_flags_verdict_fk" FOREIGN KEY ("grading_id","node_key") REFERENCES "public"."grading_verdicts"("grading_id","node_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "grading_unsure_flags_leaf_user_key" ON "grading_unsure_flags" USING btree ("grading_id","node_key","user_id");
