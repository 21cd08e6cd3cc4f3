"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { countOpenThreadsByNode } from "@/lib/comments/threads";
import type { RubricStore } from "../rubric-store";

export interface CommentPerson {
  id: string;
  name: string | null;
  email: string;
}

export interface CommentItem {
  id: string;
  body: string;
  mentions: string[];
  authorId: string | null;
  author: { name: string | null; email: string } | null;
  createdAt: string;
}

export interface CommentThread {
  id: string;
  nodeKey: string;
  nodeId: string;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: { name: string | null; email: string } | null;
  comments: CommentItem[];
}

interface CommentsResponse {
  threads: CommentThread[];
  people: CommentPerson[];
  me: string;
}

export interface CommentsApi {
  threads: CommentThread[];
  people: CommentPerson[];
  me: string | null;
  openByNode: Map<string, number>;
  loading: boolean;
  error: string | null;
  startThread: (nodeKey: string, body: string) => Promise<void>;
  reply: (threadId: string, body: string) => Promise<void>;
  setResolved: (threadId: string, resolved: boolean) => Promise<void>;
}

/**
 * The rubric's comment threads, kept fresh by the live feed (any change by anyone nudges a
 * refetch), and the changes one can make to them.
 */
export function useComments(store: RubricStore, paperId: string): CommentsApi {
  const queryClient = useQueryClient();
  const base = `/api/papers/${encodeURIComponent(paperId)}/rubric/comments`;
  const queryKey = useMemo(() => ["comments", paperId], [paperId]);
  const query = useQuery({ queryKey, queryFn: () => fetchJson<CommentsResponse>(base) });

  useEffect(
    () => store.onLive("comments", () => void refetchAfterChange(queryClient, queryKey)),
    [store, queryClient, queryKey],
  );

  const refresh = () => refetchAfterChange(queryClient, queryKey);
  const start = useMutation({
    mutationFn: ({ nodeKey, body }: { nodeKey: string; body: string }) =>
      fetchJson(base, jsonInit("POST", { nodeKey, body })),
    onSuccess: refresh,
  });
  const reply = useMutation({
    mutationFn: ({ threadId, body }: { threadId: string; body: string }) =>
      fetchJson(`${base}/${threadId}`, jsonInit("POST", { body })),
    onSuccess: refresh,
  });
  const resolve = useMutation({
    mutationFn: ({ threadId, resolved }: { threadId: string; resolved: boolean }) =>
      fetchJson(`${base}/${threadId}`, jsonInit("PATCH", { resolved })),
    onSuccess: refresh,
  });

  const threads = useMemo(() => query.data?.threads ?? [], [query.data]);
  const openByNode = useMemo(() => countOpenThreadsByNode(threads), [threads]);
  return {
    threads,
    people: query.data?.people ?? [],
    me: query.data?.me ?? null,
    openByNode,
    loading: query.isPending,
    error: query.error?.message ?? null,
    startThread: async (nodeKey, body) => void (await start.mutateAsync({ nodeKey, body })),
    reply: async (threadId, body) => void (await reply.mutateAsync({ threadId, body })),
    setResolved: async (threadId, resolved) => void (await resolve.mutateAsync({ threadId, resolved })),
  };
}

export const personLabel = (p: { name: string | null; email: string } | null | undefined) =>
  p?.name ?? p?.email ?? "someone";
