"use client";

import { useState } from "react";
import { CalibrationPanel } from "./calibration-panel";
import { LabResults } from "./lab-results";
import { LabStartPanel } from "./lab-start-panel";
import { useLabList } from "./use-judge-lab";

type Tab = "lab" | "calibration";

/**
 * `/judge-lab` (staff): run judge configurations on the human-labelled submissions and compare
 * them (F1 against the humans, cost and time per paper, beside PaperBench's published figures),
 * pick the default; and calibrate a paper's judge addendum from the reasons given in overrides.
 */
export function JudgeLabPage() {
  const [tab, setTab] = useState<Tab>("lab");
  const [labId, setLabId] = useState<string | null>(null);
  const labs = useLabList();
  const shown = labId ?? labs.data?.labs[0]?.id ?? null;
  const openLab = (id: string) => {
    setLabId(id);
    setTab("lab");
  };
  const tabClass = (t: Tab) =>
    `rounded-md px-3 py-1.5 text-sm font-medium ${tab === t ? "bg-indigo-50 text-indigo-800" : "text-zinc-600 hover:bg-zinc-100"}`;
  return (
    <section className="space-y-4" data-testid="judge-lab-page">
      <header>
        <h1 className="text-2xl font-semibold">Judge lab</h1>
        <p className="mt-1 max-w-3xl text-sm text-zinc-600">
          Runs judge configurations on submissions that humans graded and compares each with the humans leaf by leaf, as
          JudgeEval does. Lab gradings are never counted: not on the leaderboard, in an evaluation or in JudgeEval.
        </p>
      </header>
      <nav className="flex gap-1" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === "lab"}
          className={tabClass("lab")}
          onClick={() => setTab("lab")}
        >
          Lab
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === "calibration"}
          className={tabClass("calibration")}
          onClick={() => setTab("calibration")}
          data-testid="judge-lab-calibration-tab"
        >
          Calibration
        </button>
      </nav>
      {tab === "lab" ? (
        <div className="space-y-4">
          <LabStartPanel submissions={labs.data?.submissions ?? []} onStarted={openLab} />
          {labs.data && labs.data.labs.length > 0 && (
            <label className="flex items-center gap-2 text-sm text-zinc-700">
              Lab
              <select
                className="rounded-md border border-zinc-300 px-2 py-1"
                value={shown ?? ""}
                onChange={(e) => setLabId(e.target.value)}
                data-testid="judge-lab-select"
              >
                {labs.data.labs.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name} · {l.runs} runs{l.pending > 0 ? ` · ${l.pending} running` : ""}
                  </option>
                ))}
              </select>
            </label>
          )}
          {shown && <LabResults labId={shown} />}
        </div>
      ) : (
        <CalibrationPanel onLabStarted={openLab} />
      )}
    </section>
  );
}
