-- A node key is unique within its rubric, not across rubrics: creating a node with a key another paper uses must answer as a fresh key does (no oracle).
ALTER TABLE "rubric_nodes" DROP CONSTRAINT "rubric_nodes_pkey";--> statement-breakpoint
ALTER TABLE "rubric_nodes" ADD CONSTRAINT "rubric_nodes_rubric_id_key_pk" PRIMARY KEY("rubric_id","key");
