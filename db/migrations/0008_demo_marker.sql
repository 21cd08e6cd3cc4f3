ALTER TABLE "agents" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Mark what the demo seed created in databases seeded before the marker existed, and name the demo
-- agents as demo agents (the seed now creates them as "Demo <scaffold> · <model>").
UPDATE "users" SET "is_demo" = true WHERE "email" LIKE '%@demo.rubric.studio';--> statement-breakpoint
UPDATE "papers" SET "is_demo" = true WHERE "id" = 'demo-adaptive-clipping';--> statement-breakpoint
UPDATE "agents" SET "is_demo" = true, "name" = 'Demo ' || "name" WHERE "name" IN ('BasicAgent · o1', 'IterativeAgent · o3-mini', 'BasicAgent · gpt-4o', 'IterativeAgent · claude-3-5-sonnet') AND NOT EXISTS (SELECT 1 FROM "agents" a2 WHERE a2."name" = 'Demo ' || "agents"."name");
