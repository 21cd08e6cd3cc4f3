"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { ApiClientError, fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { reservedEnvNameReason } from "@/lib/jobs/reserved-env-names";
import { runSettingsKey } from "./run-settings-query";

/**
 * The paper's secrets for reproduce.sh, by name. A value is typed once and never shown again: the
 * studio answers names only. Setting a name that exists replaces its value.
 */
export function PaperSecrets({ paperId, names, canManage }: { paperId: string; names: string[]; canManage: boolean }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invalidate = () => refetchAfterChange(queryClient, runSettingsKey(paperId));
  const url = (secret: string) => `/api/papers/${paperId}/secrets/${encodeURIComponent(secret)}`;

  const add = useMutation({
    mutationFn: (secret: { name: string; value: string }) =>
      fetchJson(url(secret.name), jsonInit("PUT", { value: secret.value })),
    onSuccess: (_answer, secret) => {
      toast.success(`${secret.name} set`);
      setName("");
      setValue("");
      return invalidate();
    },
    onError: (err) => {
      if (err instanceof ApiClientError) setErrors(Object.fromEntries(err.details.map((d) => [d.path, d.message])));
      toast.error(err.message);
    },
  });
  const remove = useMutation({
    mutationFn: (secret: string) => fetchJson(url(secret), { method: "DELETE" }),
    onSuccess: (_answer, secret) => {
      toast.success(`${secret} removed`);
      return invalidate();
    },
    onError: (err) => toast.error(err.message),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    add.mutate({ name: name.trim(), value });
  }

  return (
    <div className="mt-4 border-t border-zinc-100 pt-3">
      <h3 className="mb-1 text-sm font-medium text-zinc-800">Secrets</h3>
      <p className="mb-2 text-xs text-zinc-500">
        Environment variables for reproduce.sh (HF_TOKEN…), masked in its log.
      </p>
      {names.length === 0 && <p className="text-sm text-zinc-500">No secrets.</p>}
      <ul className="space-y-1.5 text-sm" aria-label="Secrets">
        {names.map((secret) => (
          <li key={secret} className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate font-mono text-xs">{secret}</span>
            {reservedEnvNameReason(secret) ? (
              <span
                className="rounded bg-amber-50 px-1.5 text-xs text-amber-800"
                title={`${secret} cannot be a secret because ${reservedEnvNameReason(secret)}: remove it`}
              >
                not passed to jobs
              </span>
            ) : (
              <span
                className="rounded bg-emerald-50 px-1.5 text-xs text-emerald-700"
                title="A value is set; it is never shown again"
              >
                set
              </span>
            )}
            {canManage && (
              <button
                type="button"
                className="text-xs text-red-700 hover:underline disabled:text-zinc-400"
                aria-label={`Remove ${secret}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(secret)}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {canManage && (
        <form onSubmit={submit} className="mt-3 space-y-2" aria-label="Add a secret">
          <Field label="Secret name" error={errors.name}>
            <Input
              required
              placeholder="HF_TOKEN"
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              aria-invalid={!!errors.name}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setErrors(({ name: _stale, ...rest }) => rest);
              }}
            />
          </Field>
          <Field
            label="Secret value"
            hint="Stored sealed; never shown again. A name that exists gets this value."
            error={errors.value}
          >
            <Input
              type="password"
              required
              autoComplete="new-password"
              aria-invalid={!!errors.value}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                setErrors(({ value: _stale, ...rest }) => rest);
              }}
            />
          </Field>
          <Button type="submit" variant="secondary" disabled={add.isPending} className="w-full">
            {add.isPending ? "Setting…" : "Set secret"}
          </Button>
        </form>
      )}
    </div>
  );
}
