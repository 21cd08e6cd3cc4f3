"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { useNow } from "@/components/hooks/use-now";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError, Input } from "@/components/ui/field";
import { ShownOnce } from "@/components/ui/shown-once";
import { formatAgo } from "@/lib/jobs/describe";

interface TokenItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdByName?: string | null;
  embedded?: boolean;
}

/**
 * Tokens of one kind (runner tokens for staff, a person's own API tokens): create one with a name
 * (the token is shown once), the list with when each was made and last used, and Revoke with a
 * confirmation. `url` answers `GET {tokens}`, `POST {name} → {token}` and `DELETE url/<id>`.
 */
export function TokensPanel({
  url,
  what,
  namePlaceholder,
  usage,
}: {
  url: string;
  /** "runner token", "API token". */
  what: string;
  namePlaceholder: string;
  /** How to use a new token (a command line). */
  usage: (token: string) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const now = useNow(10_000);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<TokenItem | null>(null);
  const tokens = useQuery({
    queryKey: ["tokens", url],
    queryFn: () => fetchJson<{ tokens: TokenItem[] }>(url).then((r) => r.tokens),
  });
  const refresh = () => refetchAfterChange(queryClient, ["tokens", url]);

  const create = useMutation({
    mutationFn: (tokenName: string) => fetchJson<{ token: string }>(url, jsonInit("POST", { name: tokenName })),
    onSuccess: ({ token }, tokenName) => {
      setCreated({ name: tokenName, token });
      setName("");
      return refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => fetchJson(`${url}/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      toast.success(`The ${what} was revoked`);
      setRevoking(null);
      return refresh();
    },
    onError: (e) => toast.error(e.message),
  });
  const ago = (iso: string | null) => (iso ? formatAgo(iso, now) : "never");

  return (
    <div className="space-y-4" data-testid="tokens-panel">
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate(name.trim());
        }}
      >
        <Input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={namePlaceholder}
          aria-label={`New ${what}'s name`}
          className="max-w-xs"
          data-testid="token-name"
        />
        <Button type="submit" disabled={!name.trim() || create.isPending} data-testid="create-token">
          <KeyRound size={14} aria-hidden /> Create {what}
        </Button>
        <FormError error={create.error?.message} />
      </form>
      {created && (
        <ShownOnce
          label={`The new ${what} "${created.name}"`}
          secret={created.token}
          onDismiss={() => setCreated(null)}
        >
          <pre className="overflow-x-auto rounded bg-zinc-900 px-2 py-1.5 font-mono text-xs text-zinc-100">
            {usage(created.token)}
          </pre>
        </ShownOnce>
      )}
      {tokens.isError && <p className="text-sm text-red-700">{tokens.error.message}</p>}
      {tokens.data?.length === 0 && <p className="text-sm text-zinc-500">No {what}s yet.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white text-sm">
          {tokens.data.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2" data-testid="token-row">
              <span className={`font-medium ${t.revokedAt ? "text-zinc-400 line-through" : "text-zinc-800"}`}>
                {t.name}
              </span>
              {t.embedded && <span className="rounded bg-zinc-100 px-1.5 text-xs text-zinc-600">embedded</span>}
              <span className="text-xs text-zinc-500">
                created {ago(t.createdAt)}
                {t.createdByName ? ` by ${t.createdByName}` : ""} · last used {ago(t.lastUsedAt)}
              </span>
              <span className="ml-auto">
                {t.revokedAt ? (
                  <span className="text-xs text-zinc-500">revoked {ago(t.revokedAt)}</span>
                ) : (
                  <Button
                    variant="ghost"
                    className="text-red-700"
                    onClick={() => setRevoking(t)}
                    data-testid="revoke-token"
                  >
                    Revoke
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke "${revoking.name}"?`}
          confirmText="Revoke"
          pending={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onClose={() => setRevoking(null)}
        >
          <p>
            Whatever uses this {what} is refused from its next request. This cannot be undone; create a new one instead.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
