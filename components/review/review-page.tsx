"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, ChevronsDownUp, ChevronsUpDown, Download, EyeOff, Keyboard, Lock, Users } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { flushSync } from "react-dom";
import type { NodeApi, TreeApi } from "react-arborist";
import { toast } from "sonner";
import { fullBleed } from "@/components/rubric-editor/editor-states";
import { IconButton } from "@/components/rubric-editor/toolbar-controls";
import { Button, buttonClass } from "@/components/ui/button";
import { fetchJson, jsonInit } from "@/components/api/client";
import { NO_CATEGORY, NO_REVIEW_FILTERS, ReviewModel, reviewFiltersActive, type ReviewFilters } from "@/lib/review/review-model";
import type { ReviewCommitResult, ReviewPayload } from "@/lib/review/types";
import { AssignmentsDialog, assignmentsQueryKey } from "./assignments-dialog";
import { fetchLeafDetail, LeafPanel, leafQueryKey, type ScoreDraft } from "./leaf-panel";
import { ReviewProgressBar } from "./review-progress";
import { ReviewShortcutsDialog } from "./review-shortcuts";
import { ReviewRowContext, ReviewTree, treeItems, type ReviewRowContextValue, type ReviewTreeItem } from "./review-tree";
import { SubmissionPanel } from "./submission-panel";
import { chipText, scoreChipStyle } from "./score-style";

export const reviewQueryKey = (gradingId: string) => ["review", gradingId] as const;

/** The review page of one grading: the graded tree, the selected leaf, and the submission, side by side. */
export function ReviewPage({ gradingId, initialKey = null }: { gradingId: string; initialKey?: string | null }) {
  const query = useQuery({
    queryKey: reviewQueryKey(gradingId),
    queryFn: async () => {
      const payload = await fetchJson<ReviewPayload>(`/api/gradings/${gradingId}/review`);
      performance.mark("review:data");
      return payload;
    },
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const model = useMemo(() => {
    if (!query.data) return null;
    const built = new ReviewModel(query.data);
    performance.mark("review:model");
    return built;
  }, [query.data]);
  const rootRef = useRef<HTMLDivElement>(null);
  const height = useFillHeight(rootRef);

  if (query.isError) {
    return (
      <div className="mx-auto mt-10 max-w-lg rounded-lg border border-red-200 bg-red-50 p-6" role="alert" data-testid="review-error">
        <h1 className="text-lg font-semibold text-red-900">The grading could not be loaded</h1>
        <p className="mt-2 text-sm text-red-800">{query.error.message}</p>
        <div className="mt-4 flex gap-2">
          <Button onClick={() => void query.refetch()}>Try again</Button>
          <Link href="/reviews" className={buttonClass("secondary")}>
            My reviews
          </Link>
        </div>
      </div>
    );
  }
  if (!model) {
    return (
      <div ref={rootRef} style={{ ...fullBleed, height }} className="-mt-3 flex flex-col gap-2.5 px-4" data-testid="review-loading" aria-busy="true">
        <div className="h-10 w-96 animate-pulse rounded-md bg-zinc-100" />
        <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1.25fr)_minmax(20rem,1fr)_minmax(0,1fr)] gap-3">
          {[0, 1, 2].map((i) => (
            <div key={i} className="animate-pulse rounded-lg border border-zinc-200 bg-white" />
          ))}
        </div>
      </div>
    );
  }
  return <LoadedReview gradingId={gradingId} model={model} rootRef={rootRef} height={height} initialKey={initialKey} />;
}

/** From the element's top to the bottom of the window. */
function useFillHeight(ref: React.RefObject<HTMLDivElement | null>): number {
  const [height, setHeight] = useState(640);
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      if (!el) return;
      setHeight(Math.max(480, window.innerHeight - (el.getBoundingClientRect().top + window.scrollY) - 16));
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [ref]);
  return height;
}

function useElementHeight(ref: React.RefObject<HTMLElement | null>): number {
  const [h, setH] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setH(el.clientHeight);
    const ro = new ResizeObserver(() => setH(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return h;
}

function LoadedReview({
  gradingId,
  model,
  rootRef,
  height,
  initialKey,
}: {
  gradingId: string;
  model: ReviewModel;
  rootRef: React.RefObject<HTMLDivElement | null>;
  height: number;
  /** The node to open the page on; else the first leaf to review. */
  initialKey: string | null;
}) {
  const queryClient = useQueryClient();
  const version = useSyncExternalStore(model.subscribe, model.getVersion, model.getVersion);
  const { grading, viewer } = model.payload;
  const treeRef = useRef<TreeApi<ReviewTreeItem> | null>(null);
  const treeBoxRef = useRef<HTMLDivElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const treeHeight = useElementHeight(treeBoxRef);
  const data = useMemo(() => treeItems(model), [model]);
  const [initialOpenState] = useState(() => {
    // Small trees open whole; large ones (pinn: 2,551 nodes) down to the root's grandchildren.
    const open: Record<string, boolean> = {};
    const all = model.nodes.length <= 300;
    const depth = new Map<string, number>();
    for (const n of model.nodes) {
      const d = n.parentKey === null ? 0 : depth.get(n.parentKey)! + 1;
      depth.set(n.key, d);
      if (all || d < 1) open[n.key] = true;
    }
    return open;
  });
  const [filters, setFilters] = useState<ReviewFilters>(NO_REVIEW_FILTERS);
  const [helpOpen, setHelpOpen] = useState(false);
  const [assignOpen, setAssignOpen] = useState<{ subtree: string | null } | null>(null);
  const [draft, setDraft] = useState<ScoreDraft | null>(null);
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState(0);
  const inFlight = useRef(0);
  const isReviewable = useCallback((key: string) => model.inScope(key) && !model.isReviewed(key), [model]);
  const [selectedKey, setSelectedKey] = useState<string | null>(() =>
    initialKey && model.node(initialKey) ? initialKey : (model.stepLeaf(null, 1, isReviewable) ?? model.stepLeaf(null, 1)),
  );
  const selectedAt = useRef(0);
  useEffect(() => {
    selectedAt.current = performance.now();
  }, [selectedKey]);

  // The latest values for the stable callbacks (keyboard, tree).
  const latest = useRef({ model, selectedKey, filters, draft, reason });
  latest.current = { model, selectedKey, filters, draft, reason };

  /* ---------- filters ---------- */
  const filterActive = reviewFiltersActive(filters);
  // The version is part of the token: a commit can move a leaf in or out of "unreviewed".
  const filterToken = filterActive ? `f:${filters.unreviewed}|${filters.invalid}|${filters.disagreement}|${filters.category}|${version}` : "";
  const filterMatch = useCallback((node: NodeApi<ReviewTreeItem>) => model.matches(node.id, filters), [model, filters]);
  const matchCount = useMemo(() => {
    if (!filterActive) return 0;
    let n = 0;
    for (const i of model.leafOrder) if (model.matches(model.keyAt(i), filters)) n++;
    return n;
  }, [model, filters, filterActive, version]);

  /* ---------- selection ---------- */
  const show = useCallback((key: string) => {
    const tree = treeRef.current;
    if (!tree) return;
    tree.dispatch({ type: "FOCUS", id: key } as Parameters<typeof tree.dispatch>[0]);
    void tree.scrollTo(key, "smart");
  }, []);

  const select = useCallback(
    (key: string) => {
      setSelectedKey(key);
      setDraft((d) => (d && d.key !== key ? null : d));
      setReason((r) => (latest.current.draft?.key === key ? r : ""));
      show(key);
      // The next leaf's detail loads while this one is read.
      const m = latest.current.model;
      const next = m.stepLeaf(key, 1);
      if (next && !m.leaf(next)?.hidden) void queryClient.prefetchQuery({ queryKey: leafQueryKey(gradingId, next), queryFn: () => fetchLeafDetail(gradingId, next), staleTime: Infinity });
    },
    [show, queryClient, gradingId],
  );

  // The first leaf to review is shown once the tree is there.
  const shownInitial = useRef(false);
  useEffect(() => {
    if (shownInitial.current || treeHeight === 0 || !selectedKey) return;
    shownInitial.current = true;
    show(selectedKey);
  }, [treeHeight, selectedKey, show]);

  const onFocusKey = useCallback(
    (key: string) => {
      if (key === latest.current.selectedKey) return;
      setSelectedKey(key);
      setDraft(null);
      setReason("");
    },
    [],
  );

  const step = useCallback(
    (dir: 1 | -1) => {
      const { model: m, selectedKey: from, filters: f } = latest.current;
      const active = reviewFiltersActive(f);
      const next = m.stepLeaf(from, dir, active ? (k) => m.matches(k, f) : undefined);
      if (next) select(next);
      else toast.info(active ? "No leaf matches the filters" : "This grading has no leaves");
    },
    [select],
  );

  const nextUnreviewed = useCallback(() => {
    const { model: m, selectedKey: from } = latest.current;
    const next = m.stepLeaf(from, 1, (k) => m.inScope(k) && !m.isReviewed(k));
    if (next) select(next);
    else toast.success("Every leaf in your scope has been reviewed");
  }, [select]);

  /* ---------- committing ---------- */
  const commit = useCallback(
    async (key: string, score: number, why: string) => {
      const m = latest.current.model;
      const timeSpentMs = Math.max(0, Math.round(performance.now() - selectedAt.current));
      let local;
      try {
        local = m.commitLocal(key, score);
      } catch (err) {
        toast.error(err instanceof Error ? err.message : String(err));
        return;
      }
      setDraft(null);
      setReason("");
      if (document.activeElement === reasonRef.current) reasonRef.current?.blur();
      inFlight.current++;
      setPending((n) => n + 1);
      try {
        const result = await fetchJson<ReviewCommitResult>(`/api/gradings/${gradingId}/reviews`, jsonInit("POST", { nodeKey: key, score, reason: why, timeSpentMs }));
        inFlight.current--;
        const agrees = m.confirm(result.leaf, result.rootScore);
        if (!agrees && inFlight.current === 0) {
          toast.info("Someone else changed this grading meanwhile: reloaded it");
          void queryClient.invalidateQueries({ queryKey: reviewQueryKey(gradingId) });
        }
        if (local.blind) {
          const s = result.leaf.override ?? (result.leaf.verdict?.valid ? result.leaf.verdict.score : 0);
          toast.message(`Committed ${score}. ${result.override ? `It differs from the verdict: the leaf now counts ${s}.` : "It agrees with the verdict."}`);
        }
        if (result.reviewedAt && !m.payload.grading.reviewedAt) {
          m.payload.grading.reviewedAt = result.reviewedAt;
          toast.success("Every leaf of this grading has now been reviewed");
        }
        void queryClient.invalidateQueries({ queryKey: leafQueryKey(gradingId, key) });
        void queryClient.invalidateQueries({ queryKey: assignmentsQueryKey(gradingId) });
      } catch (err) {
        inFlight.current--;
        local.undo();
        toast.error(err instanceof Error ? err.message : String(err));
      } finally {
        setPending((n) => n - 1);
      }
    },
    [gradingId, queryClient],
  );

  const focusReason = useCallback(() => {
    requestAnimationFrame(() => reasonRef.current?.focus());
  }, []);

  /** 0 / 1 (keys or buttons): commits a confirmation (or a blind score) at once; a change waits for its reason. */
  const setScore = useCallback(
    (score: number) => {
      const { model: m, selectedKey: key } = latest.current;
      if (!key || !m.isLeaf(key)) {
        toast.info("Select a leaf first (j / k)");
        return;
      }
      if (!viewer.canReview) {
        toast.error(`Your role on this paper (${viewer.role}) cannot review gradings`);
        return;
      }
      if (!m.inScope(key)) {
        toast.error("This leaf is outside the part of the grading assigned to you");
        return;
      }
      const leaf = m.leaf(key)!;
      if (leaf.hidden === "blind" || (score === m.effectiveScore(key) && !m.isInvalid(key))) {
        void commit(key, score, "");
        return;
      }
      setDraft({ key, score });
      focusReason();
    },
    [commit, focusReason, viewer.canReview, viewer.role],
  );

  const commitDraft = useCallback(() => {
    const { model: m, selectedKey: key, draft: d, reason: why } = latest.current;
    if (!key) return;
    if (!d || d.key !== key) {
      toast.info("Choose a score first: 0 or 1");
      return;
    }
    const changes = d.score !== m.effectiveScore(key) || m.isInvalid(key);
    if (changes && !why.trim() && !m.isInvalid(key)) {
      toast.error("Say why you change the score: the reason is required");
      reasonRef.current?.focus();
      return;
    }
    void commit(key, d.score, why);
  }, [commit]);

  const cancelDraft = useCallback(() => {
    setDraft(null);
    setReason("");
    reasonRef.current?.blur();
  }, []);

  /* ---------- keyboard ---------- */
  const keyActions = useRef({ step, nextUnreviewed, setScore, focusReason, toggleHelp: () => setHelpOpen((o) => !o) });
  keyActions.current = { step, nextUnreviewed, setScore, focusReason, toggleHelp: () => setHelpOpen((o) => !o) };
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target instanceof HTMLElement ? e.target : null;
      if (t?.closest("input, textarea, select, [contenteditable='true']")) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]') && e.key !== "?") return;
      const a = keyActions.current;
      let act: (() => void) | null = null;
      switch (e.key) {
        case "j":
          act = () => a.step(1);
          break;
        case "k":
          act = () => a.step(-1);
          break;
        case "n":
          act = () => a.nextUnreviewed();
          break;
        case "0":
        case "1":
          act = () => a.setScore(Number(e.key));
          break;
        case "r":
          act = () => a.focusReason();
          break;
        case "?":
          act = () => a.toggleHelp();
          break;
        default:
          return;
      }
      // Before react-arborist (its type-ahead would move the focus), rendered at once.
      e.preventDefault();
      e.stopPropagation();
      flushSync(act);
    }
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, []);

  /* ---------- rendering ---------- */
  const rowCtx = useMemo(
    (): ReviewRowContextValue => ({ model, version, selectedKey, onSelect: select, judgeLabel: grading.kind === "human" ? "Human" : "Judge" }),
    [model, version, selectedKey, select, grading.kind],
  );
  // `version` changes with every commit: the model itself is the same object.
  const progress = useMemo(() => model.progress(), [model, version]);
  const root = model.nodes[0]?.key;
  const rootScore = model.rootScore;
  const rootVerdict = root ? model.verdictScoreOf(root) : null;
  const assignment = viewer.assignment;

  return (
    <div ref={rootRef} style={{ ...fullBleed, height }} className="-mt-3 flex flex-col gap-2.5 px-4" data-testid="review-page">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Link href={`/papers/${grading.paperId}`} className="rounded-md p-1 text-zinc-500 hover:bg-zinc-200" aria-label="Back to the paper">
          <ArrowLeft size={16} />
        </Link>
        <div className="min-w-0">
          <h1 className="truncate text-base font-semibold leading-tight text-zinc-900" data-testid="review-title">
            {grading.agentName} · run {grading.runIndex}
            {grading.variant === "code-dev" && <span className="ml-1.5 rounded bg-sky-50 px-1.5 text-xs font-medium text-sky-800">Code-Dev</span>}
          </h1>
          <p className="truncate text-xs text-zinc-500">
            {grading.paperTitle} · {grading.kind === "human" ? "human grading" : `judge grading${grading.judgeModel ? ` (${grading.judgeModel})` : ""}`} ·{" "}
            {grading.rubricVersionName}
          </p>
        </div>
        <div className="flex items-center gap-2 rounded-md border border-zinc-200 bg-white px-2.5 py-1" data-testid="root-scores">
          <span className="text-xs text-zinc-500">{grading.kind === "human" ? "Imported" : "Judge"}</span>
          <span className="rounded px-1.5 font-mono text-sm font-semibold tabular-nums" style={scoreChipStyle(rootVerdict)} data-testid="root-judge-score">
            {rootVerdict === null ? "—" : `${(rootVerdict * 100).toFixed(2)}%`}
          </span>
          <span className="text-zinc-300">→</span>
          <span className="text-xs text-zinc-500">Human-adjusted</span>
          <span className="rounded px-1.5 font-mono text-sm font-semibold tabular-nums" style={scoreChipStyle(rootScore)} data-testid="root-score" data-score={rootScore ?? ""}>
            {rootScore === null ? "—" : `${(rootScore * 100).toFixed(2)}%`}
          </span>
          {rootScore === null && (
            <span className="text-[11px] text-zinc-500" title="Some verdicts are hidden from you">
              hidden
            </span>
          )}
        </div>
        {assignment && (
          <span className="flex items-center gap-1 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600" data-testid="assignment-badge">
            {assignment.blind && <EyeOff size={12} aria-hidden />}
            {assignment.nodeKeys && <Lock size={12} aria-hidden />}
            {assignment.blind ? "Blind review" : "Assigned to you"}
            {assignment.nodeKeys ? ` · ${assignment.nodeKeys.length === 1 ? "one subtree" : `${assignment.nodeKeys.length} subtrees`}` : ""}
          </span>
        )}
        <div className="ml-auto flex items-center gap-3">
          <ReviewProgressBar progress={progress} own={model.countsOwnReviews} />
          <span className={`text-xs ${pending ? "text-amber-700" : "text-emerald-700"}`} data-testid="review-save-state" role="status">
            {pending ? "Saving…" : "Saved"}
          </span>
          {viewer.canAssign && (
            <Button variant="secondary" onClick={() => setAssignOpen({ subtree: selectedKey })} data-testid="assign-button">
              <Users size={15} aria-hidden /> Graders
            </Button>
          )}
          {model.payload.rootScore !== null && <GradingExportMenu gradingId={grading.id} />}
          <IconButton label="Keyboard shortcuts (?)" onClick={() => setHelpOpen(true)} testId="review-help" bordered>
            <Keyboard size={15} />
          </IconButton>
        </div>
      </header>

      <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1.25fr)_minmax(21rem,1fr)_minmax(0,1fr)] gap-3">
        {/* ---------- graded tree ---------- */}
        <section className="flex min-w-0 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs" aria-label="Graded tree">
          <div className="flex flex-wrap items-center gap-1.5 border-b border-zinc-200 px-2 py-1.5" data-testid="review-filters">
            {(
              [
                ["unreviewed", "Unreviewed"],
                ["invalid", "Invalid"],
                ["disagreement", "Judge ≠ human"],
              ] as const
            ).map(([k, label]) => (
              <button
                key={k}
                type="button"
                aria-pressed={filters[k]}
                data-testid={`filter-${k}`}
                onClick={() => setFilters((f) => ({ ...f, [k]: !f[k] }))}
                className={`h-7 rounded-md border px-2 text-xs font-medium ${
                  filters[k] ? "border-indigo-400 bg-indigo-50 text-indigo-800" : "border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50"
                }`}
              >
                {label}
              </button>
            ))}
            <select
              aria-label="Category"
              data-testid="filter-category"
              value={filters.category}
              onChange={(e) => setFilters((f) => ({ ...f, category: e.target.value }))}
              className="h-7 rounded-md border border-zinc-300 bg-white px-1 text-xs text-zinc-700"
            >
              <option value="">Any category</option>
              {model.categories.map((c) => (
                <option key={c} value={c}>
                  {c === NO_CATEGORY ? "No category" : c}
                </option>
              ))}
            </select>
            {filterActive && (
              <span className="flex items-center gap-1 text-xs text-zinc-600" data-testid="filter-count">
                {matchCount.toLocaleString("en")} {matchCount === 1 ? "leaf" : "leaves"}
                <button type="button" onClick={() => setFilters(NO_REVIEW_FILTERS)} className="rounded px-1 text-indigo-700 hover:bg-indigo-50">
                  Clear
                </button>
              </span>
            )}
            <span className="ml-auto flex items-center gap-1">
              <IconButton label="Expand all" onClick={() => treeRef.current?.openAll()} bordered>
                <ChevronsUpDown size={14} />
              </IconButton>
              <IconButton label="Collapse all" onClick={() => treeRef.current?.closeAll()} bordered>
                <ChevronsDownUp size={14} />
              </IconButton>
            </span>
          </div>
          <div ref={treeBoxRef} className="relative min-h-0 flex-1" data-testid="review-tree">
            {filterActive && matchCount === 0 && (
              <p className="absolute inset-x-0 top-8 z-10 text-center text-sm text-zinc-500" data-testid="filter-empty">
                No leaf matches these filters.
              </p>
            )}
            <ReviewRowContext.Provider value={rowCtx}>
              {treeHeight > 0 && (
                <ReviewTree
                  treeRef={treeRef}
                  data={data}
                  height={treeHeight}
                  initialOpenState={initialOpenState}
                  filterToken={filterToken}
                  filterMatch={filterMatch}
                  onFocusKey={onFocusKey}
                />
              )}
            </ReviewRowContext.Provider>
          </div>
          <footer className="flex shrink-0 items-center gap-3 border-t border-zinc-200 bg-zinc-50/80 px-3 py-1 text-[11px] text-zinc-500">
            <span>{model.leafOrder.length.toLocaleString("en")} leaves</span>
            <span className="ml-auto">
              <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> leaves · <kbd className="font-mono">0</kbd>/<kbd className="font-mono">1</kbd> score ·{" "}
              <kbd className="font-mono">n</kbd> next unreviewed · <kbd className="font-mono">?</kbd> help
            </span>
          </footer>
        </section>

        {/* ---------- selected leaf ---------- */}
        <section className="min-w-0 overflow-y-auto rounded-lg border border-zinc-200 bg-white p-4 shadow-xs" aria-label="Selected node">
          {selectedKey ? (
            <LeafPanel
              model={model}
              version={version}
              gradingId={gradingId}
              selectedKey={selectedKey}
              canReview={viewer.canReview}
              draft={draft}
              reason={reason}
              reasonRef={reasonRef}
              committing={false}
              onDraft={setScore}
              onReason={setReason}
              onCommit={commitDraft}
              onCancel={cancelDraft}
              onAssignSubtree={viewer.canAssign ? (key) => setAssignOpen({ subtree: key }) : undefined}
            />
          ) : (
            <p className="text-sm text-zinc-500">Select a leaf (j / k).</p>
          )}
        </section>

        {/* ---------- submission ---------- */}
        <section className="flex min-w-0 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs" aria-label="Submission">
          <SubmissionPanel gradingId={gradingId} />
        </section>
      </div>

      <ReviewShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      {viewer.canAssign && (
        <AssignmentsDialog
          open={assignOpen !== null}
          onClose={() => setAssignOpen(null)}
          gradingId={gradingId}
          paperId={grading.paperId}
          model={model}
          subtreeKey={assignOpen?.subtree ?? null}
        />
      )}
      <span className="sr-only" aria-live="polite">
        {rootScore === null ? "" : `Score ${chipText(rootScore, false)}`}
      </span>
    </div>
  );
}

/** Downloads of the grading with the human-adjusted scores (only for someone who sees every verdict). */
function GradingExportMenu({ gradingId }: { gradingId: string }) {
  const href = (format: string) => `/api/gradings/${gradingId}/export?format=${format}`;
  return (
    <details className="relative text-sm" data-testid="grading-export">
      <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 py-1.5 font-medium text-zinc-800 hover:bg-zinc-50">
        <Download size={15} aria-hidden /> Export
      </summary>
      <ul className="absolute right-0 z-30 mt-1 w-64 rounded-lg border border-zinc-200 bg-white py-1 shadow-lg">
        {(
          [
            ["json", "Graded tree (PaperBench JSON)"],
            ["judge_output", "Judge output (grader_output.json)"],
            ["csv", "Leaves as CSV"],
          ] as const
        ).map(([format, label]) => (
          <li key={format}>
            <a href={href(format)} download className="block px-3 py-1.5 hover:bg-zinc-50" data-testid={`grading-export-${format}`}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
