"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import type { MarkReadRequest, NotificationList, UnreadState } from "@/lib/notifications/schemas";

const LIST_KEY = ["notifications"] as const;

/**
 * The signed-in user's inbox: the unread count, live from `/api/notifications/stream` (the header
 * stays mounted across pages, so one stream per tab), and the list, read while the panel is open
 * and again whenever the stream says something changed.
 */
export function useNotificationInbox(open: boolean) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<UnreadState | null>(null);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/notifications/stream");
    source.addEventListener("unread", (e) => {
      setState(JSON.parse((e as MessageEvent<string>).data) as UnreadState);
      void refetchAfterChange(queryClient, LIST_KEY);
    });
    // The session ended (signed out elsewhere, disabled): reconnecting would only be refused.
    source.addEventListener("access-ended", () => source.close());
    return () => source.close();
  }, [queryClient]);

  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: () => fetchJson<NotificationList>("/api/notifications", { cache: "no-store" }),
    enabled: open,
    staleTime: 0,
  });

  const markRead = useMutation({
    mutationFn: (which: MarkReadRequest) => fetchJson<UnreadState>("/api/notifications/read", jsonInit("POST", which)),
    onSuccess: (next) => {
      setState(next);
      void refetchAfterChange(queryClient, LIST_KEY);
    },
  });

  // Until the stream's first word, the list (when read) knows the count.
  const unread = state?.unread ?? list.data?.unread ?? 0;
  return { unread, list, markRead: markRead.mutate, marking: markRead.isPending, markError: markRead.error };
}
