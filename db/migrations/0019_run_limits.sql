ALTER TABLE "paper_run_settings" ADD COLUMN "disk_limit_mib" integer DEFAULT 51200 NOT NULL;--> statement-breakpoint
ALTER TABLE "paper_run_settings" ADD COLUMN "memory_limit_mib" integer DEFAULT 32768 NOT NULL;--> statement-breakpoint
ALTER TABLE "paper_run_settings" ADD COLUMN "process_limit" integer DEFAULT 4096 NOT NULL;
