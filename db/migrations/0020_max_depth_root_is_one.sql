-- A judge run's max depth now means PaperBench's max_depth (the root at depth 1, was 0): the
-- runs stored before keep grading the same nodes whole when their depth is read the new way.
UPDATE "judge_runs" SET "max_depth" = "max_depth" + 1 WHERE "max_depth" IS NOT NULL;
