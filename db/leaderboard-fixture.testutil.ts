/**
 * Synthetic graded runs for leaderboard tests and the leaderboard benchmark, written with a few
 * bulk statements (not the import path): papers with an empty rubric and one pinned version,
 * agents, submissions and one grading each. The gradings carry scores only (no verdicts): the
 * leaderboard reads `gradings.score`.
 */
import { sql } from "drizzle-orm";
import type { Variant } from "@/lib/grading/variant";
import type { EvaluationPolicies } from "@/lib/evaluations/schemas";
import { isPlaceholderJudge, type GradingProvenance } from "@/lib/evaluations/provenance";
import type { Executor } from "./client";

export interface SyntheticGrading {
  agent: string;
  paper: string;
  run: number;
  score: number;
  variant?: Variant;
  kind?: "judge" | "human";
  judgeModel?: string | null;
  /** Sets `reviewed_at` (a review covered every leaf). */
  reviewed?: boolean;
  /** ISO time of `created_at` (which grading of a submission is the latest). */
  createdAt?: string;
  /**
   * A judge grading by the studio's judge of this kind and mode (its provenance recorded, a
   * placeholder marked as such); absent: an imported "simple" grading without one.
   */
  judge?: { kind: "llm" | "dummy" | "random"; mode?: "efficient" | "paperbench"; policies?: EvaluationPolicies | null };
}

/**
 * Inserts the papers (id = title), agents (by name), submissions and gradings, creating what is
 * missing; several gradings of one submission are fine. Returns the new gradings' ids in order.
 */
export async function insertSyntheticGradings(db: Executor, gradings: readonly SyntheticGrading[]): Promise<string[]> {
  const papers = [...new Set(gradings.map((g) => g.paper))];
  const agents = [...new Set(gradings.map((g) => g.agent))];
  await db.execute(sql`
    INSERT INTO papers (id, title)
    SELECT p, 'Synthetic paper ' || p FROM jsonb_array_elements_text(${JSON.stringify(papers)}::jsonb) AS p
    ON CONFLICT (id) DO NOTHING
  `);
  await db.execute(sql`
    INSERT INTO rubrics (paper_id)
    SELECT p FROM jsonb_array_elements_text(${JSON.stringify(papers)}::jsonb) AS p
    ON CONFLICT (paper_id) DO NOTHING
  `);
  await db.execute(sql`
    INSERT INTO rubric_versions (rubric_id, name, revision, snapshot)
    SELECT r.id, 'Synthetic', 0, '{"rows": []}'::jsonb
    FROM rubrics r
    WHERE r.paper_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(papers)}::jsonb))
      AND NOT EXISTS (SELECT 1 FROM rubric_versions v WHERE v.rubric_id = r.id)
  `);
  await db.execute(sql`
    INSERT INTO agents (name, model, scaffold)
    SELECT a, 'synthetic-model', 'SyntheticAgent' FROM jsonb_array_elements_text(${JSON.stringify(agents)}::jsonb) AS a
    ON CONFLICT (name) DO NOTHING
  `);
  const rows = gradings.map((g, i) => ({
    i,
    agent: g.agent,
    paper: g.paper,
    run: g.run,
    score: g.score,
    variant: g.variant ?? "full",
    kind: g.kind ?? "judge",
    judge_model: g.kind === "human" ? null : g.judgeModel === undefined ? "synthetic-judge" : g.judgeModel,
    reviewed: g.reviewed ?? false,
    created_at: g.createdAt ?? null,
    judge_type: g.kind === "human" ? "human" : g.judge ? (g.judge.kind === "llm" ? "simple" : g.judge.kind) : "simple",
    placeholder: g.judge !== undefined && isPlaceholderJudge(g.judge.kind),
    provenance: g.judge
      ? ({
          origin: "judge_run",
          judgeKind: g.judge.kind,
          judgeModel: g.judgeModel ?? "synthetic-judge",
          mode: g.judge.mode ?? "efficient",
          config: null,
          promptSource: null,
          evaluationId: null,
          policies: g.judge.policies ?? null,
        } satisfies GradingProvenance)
      : null,
  }));
  const payload = JSON.stringify(rows);
  await db.execute(sql`
    INSERT INTO submissions (paper_id, agent_id, run_index, variant)
    SELECT DISTINCT x.paper, a.id, x.run, x.variant::submission_variant
    FROM jsonb_to_recordset(${payload}::jsonb) AS x(agent text, paper text, run int, variant text)
    JOIN agents a ON a.name = x.agent
    ON CONFLICT DO NOTHING
  `);
  const inserted = await db.execute(sql`
    INSERT INTO gradings (submission_id, rubric_version_id, rubric_view, rubric_fingerprint, kind, judge_type, judge_model,
      score, imported_score, source, created_at, reviewed_at, judge_placeholder, provenance)
    SELECT s.id, v.id, x.variant::submission_variant, 'synthetic', x.kind::grading_kind,
      x.judge_type, x.judge_model,
      x.score, x.score, '{"format": "seed", "fileName": null, "sha256": null, "bytes": null}'::jsonb,
      coalesce(x.created_at, now() + make_interval(secs => x.i / 1000.0)),
      CASE WHEN x.reviewed THEN now() ELSE NULL END, x.placeholder, x.provenance
    FROM jsonb_to_recordset(${payload}::jsonb) AS x(i int, agent text, paper text, run int, score float8, variant text, kind text,
      judge_model text, reviewed boolean, created_at timestamptz, judge_type text, placeholder boolean, provenance jsonb)
    JOIN agents a ON a.name = x.agent
    JOIN submissions s ON s.paper_id = x.paper AND s.agent_id = a.id AND s.run_index = x.run AND s.variant = x.variant::submission_variant
    JOIN rubrics r ON r.paper_id = x.paper
    JOIN LATERAL (SELECT id FROM rubric_versions WHERE rubric_id = r.id ORDER BY created_at LIMIT 1) v ON true
    ORDER BY x.i
    RETURNING id
  `);
  return (inserted.rows as { id: string }[]).map((r) => r.id);
}
