"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { fetchJson, jsonInit } from "@/components/api/client";

interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: "author" | "grader";
}

/** Who belongs to the paper; staff add members by email with a role, and remove them. */
export function MembersPanel({ paperId, canManage }: { paperId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const queryKey = ["members", paperId];
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Member["role"]>("author");
  const members = useQuery({
    queryKey,
    queryFn: () => fetchJson<{ members: Member[] }>(`/api/papers/${paperId}/members`).then((r) => r.members),
  });
  const invalidate = () => refetchAfterChange(queryClient, queryKey);
  const add = useMutation({
    mutationFn: () => fetchJson(`/api/papers/${paperId}/members`, jsonInit("POST", { email, role })),
    onSuccess: () => {
      toast.success(`${email} added as ${role}`);
      setEmail("");
      return invalidate();
    },
    onError: (err) => toast.error(err.message),
  });
  const remove = useMutation({
    mutationFn: (userId: string) => fetchJson(`/api/papers/${paperId}/members/${userId}`, { method: "DELETE" }),
    onSuccess: invalidate,
    onError: (err) => toast.error(err.message),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate();
  }

  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-5" data-testid="members-panel">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">Members</h2>
      {members.isPending && <p className="text-sm text-zinc-500">Loading…</p>}
      {members.data?.length === 0 && <p className="text-sm text-zinc-500">No members yet.</p>}
      <ul className="space-y-1.5 text-sm">
        {members.data?.map((m) => (
          <li key={m.userId} className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate" title={m.email}>
              {m.name ?? m.email}
            </span>
            <span className="text-xs text-zinc-500">{m.role}</span>
            {canManage && (
              <button
                type="button"
                className="text-xs text-red-700 hover:underline"
                aria-label={`Remove ${m.email}`}
                onClick={() => remove.mutate(m.userId)}
              >
                remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {canManage && (
        <form onSubmit={submit} className="mt-4 space-y-2">
          <Input
            type="email"
            required
            placeholder="email@example.org"
            aria-label="Member email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <div className="flex gap-2">
            <select
              aria-label="Member role"
              value={role}
              onChange={(e) => setRole(e.target.value as Member["role"])}
              className="rounded-md border border-zinc-300 bg-white px-2 text-sm"
            >
              <option value="author">author</option>
              <option value="grader">grader</option>
            </select>
            <Button type="submit" disabled={add.isPending} className="flex-1">
              Add member
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
