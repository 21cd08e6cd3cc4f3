"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { evaluationMatrixKey } from "./evaluation-query";
import { refetchAfterChange } from "@/components/api/refetch-after-change";

export type StreamConnection = "connecting" | "live" | "reconnecting" | "access-ended";

/** Cells change in bursts (a judge run stores a verdict per leaf): one refetch per quiet moment. */
const DEBOUNCE_MS = 300;

/**
 * Follows `/api/evaluations/<id>/stream` and refetches the matrix, debounced, whenever the server
 * says a cell changed. The browser's EventSource reconnects by itself; the refetch on `open` covers
 * whatever changed while the connection was down.
 */
export function useEvaluationStream(evaluationId: string): StreamConnection {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<StreamConnection>("connecting");
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/evaluations/${encodeURIComponent(evaluationId)}/stream`);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refetch = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void refetchAfterChange(queryClient, evaluationMatrixKey(evaluationId));
      }, DEBOUNCE_MS);
    };
    source.addEventListener("open", () => {
      setConnection("live");
      refetch();
    });
    source.addEventListener("error", () => setConnection((c) => (c === "access-ended" ? c : "reconnecting")));
    source.addEventListener("cell", refetch);
    source.addEventListener("access-ended", () => {
      source.close();
      setConnection("access-ended");
    });
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [evaluationId, queryClient]);
  return connection;
}
