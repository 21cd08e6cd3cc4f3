-- Every grading says how it was made (lib/grading/provenance.ts): judge kind and model, mode, the
-- configuration (id and a frozen copy of the fields that change scores), the prompts' source and
-- the evaluation's failure policies. `judge_placeholder`: graded by Dummy or Random, whose scores
-- are members-only and never in a public figure (the public leaderboard filters on it).
ALTER TABLE "gradings" ADD COLUMN "provenance" jsonb;--> statement-breakpoint
ALTER TABLE "gradings" ADD COLUMN "judge_placeholder" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Backfill. A placeholder is known from its run's configuration kind, or from an imported file's
-- judge_type (PaperBench's DummyJudge and RandomJudge write "dummy" and "random").
UPDATE "gradings" g SET "judge_placeholder" = true
WHERE g."judge_type" IN ('dummy', 'random')
  OR EXISTS (SELECT 1 FROM "judge_runs" r WHERE r."grading_id" = g."id" AND r."config"->>'kind' IN ('dummy', 'random'));--> statement-breakpoint
-- The studio's own judge runs: the configuration each run froze when it started, its depth, and
-- the policies of the evaluation its submission is in. The prompts' source was not recorded then.
UPDATE "gradings" g SET "provenance" = jsonb_build_object(
  'origin', 'backfill',
  'judgeKind', r."config"->>'kind',
  'judgeModel', r."config"->>'model',
  'mode', coalesce(r."config"->>'mode', 'efficient'),
  'config', jsonb_build_object(
    'id', r."config_id",
    'name', r."config"->>'name',
    'model', r."config"->>'model',
    'mode', coalesce(r."config"->>'mode', 'efficient'),
    'reasoningEffort', r."config"->>'reasoningEffort',
    'contextWindow', (r."config"->>'contextWindow')::int,
    'parseModel', r."config"->>'parseModel',
    'maxDepth', r."max_depth"
  ),
  'promptSource', NULL,
  'evaluationId', s."evaluation_id",
  'policies', e."policies"
)
FROM "judge_runs" r
JOIN "submissions" s ON s."id" = r."submission_id"
LEFT JOIN "evaluations" e ON e."id" = s."evaluation_id"
WHERE r."grading_id" = g."id";--> statement-breakpoint
-- Everything else: a person's grading, the demo's synthetic data, or an imported file.
UPDATE "gradings" g SET "provenance" = jsonb_build_object(
  'origin', CASE WHEN g."kind" = 'human' THEN 'human' WHEN g."source"->>'format' = 'seed' THEN 'seed' ELSE 'import' END,
  'judgeKind', CASE WHEN g."judge_type" IN ('dummy', 'random') THEN g."judge_type" END,
  'judgeModel', g."judge_model",
  'mode', NULL,
  'config', NULL,
  'promptSource', NULL,
  'evaluationId', s."evaluation_id",
  'policies', e."policies"
)
FROM "submissions" s
LEFT JOIN "evaluations" e ON e."id" = s."evaluation_id"
WHERE s."id" = g."submission_id" AND g."provenance" IS NULL;
