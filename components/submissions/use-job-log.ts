"use client";

import { useEffect, useRef, useState } from "react";
import { isFinalJobStatus, type JobStatus } from "@/lib/jobs/states";
import { appendChunk, emptyAttemptLog, type AttemptLog } from "./log-model";

export interface JobStateEvent {
  status: JobStatus;
  attempt: number;
  exitCode: number | null;
  cancelRequested: boolean;
}

export interface JobLog {
  /** Each attempt's log, by attempt number. */
  attempts: Map<number, AttemptLog>;
  /** `live` while the stream follows the job, `ended` once the job ended (the log is complete). */
  connection: "connecting" | "live" | "reconnecting" | "ended" | "access-ended";
}

/**
 * Follows a job's log over Server-Sent Events: every attempt's chunks from the start, then live
 * (the browser resumes after `Last-Event-ID` when the connection drops). `onState` hears each
 * change of the job's state; the stream is closed once the job has ended.
 */
export function useJobLog(jobId: string | null, onState: (state: JobStateEvent) => void): JobLog {
  const [log, setLog] = useState<JobLog>({ attempts: new Map(), connection: "connecting" });
  const onStateRef = useRef(onState);
  useEffect(() => {
    onStateRef.current = onState;
  });
  useEffect(() => {
    setLog({ attempts: new Map(), connection: "connecting" });
    if (!jobId) return;
    const source = new EventSource(`/api/jobs/${jobId}/log`);
    // Chunks come in bursts: one state update per animation frame, not one per chunk.
    let pending: { attempt: number; seq: number; text: string }[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      setLog((prev) => {
        const attempts = new Map(prev.attempts);
        for (const c of batch)
          attempts.set(c.attempt, appendChunk(attempts.get(c.attempt) ?? emptyAttemptLog(), c.seq, c.text));
        return { ...prev, attempts };
      });
    };
    source.addEventListener("open", () => setLog((prev) => ({ ...prev, connection: "live" })));
    source.addEventListener("error", () =>
      setLog((prev) => (prev.connection === "ended" ? prev : { ...prev, connection: "reconnecting" })),
    );
    source.addEventListener("log", (e) => {
      pending.push(JSON.parse((e as MessageEvent<string>).data));
      if (!frame) frame = requestAnimationFrame(flush);
    });
    source.addEventListener("job", (e) => {
      const state = JSON.parse((e as MessageEvent<string>).data) as JobStateEvent;
      onStateRef.current(state);
      if (isFinalJobStatus(state.status)) {
        // The server sends a job's chunks before its state, so the log is complete here.
        source.close();
        if (frame) cancelAnimationFrame(frame);
        flush();
        setLog((prev) => ({ ...prev, connection: "ended" }));
      }
    });
    source.addEventListener("access-ended", () => {
      source.close();
      setLog((prev) => ({ ...prev, connection: "access-ended" }));
    });
    return () => {
      source.close();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [jobId]);
  return log;
}
