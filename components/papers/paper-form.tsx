"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea } from "@/components/ui/field";
import { ApiClientError, fetchJson, jsonInit } from "@/components/api/client";
import { PAPER_ID_RULE, paperIdSchema } from "@/lib/papers/schemas";

interface PaperFormValues {
  id: string;
  title: string;
  paperMarkdown: string;
  addendum: string;
  judgeAddendum: string;
  blacklist: string;
}

const EMPTY: PaperFormValues = { id: "", title: "", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: "" };

/** Create or edit a paper's fields; server-side validation errors appear beside their field. */
export function PaperForm({ mode, initial = EMPTY }: { mode: "create" | "edit"; initial?: PaperFormValues }) {
  const router = useRouter();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const set = (key: keyof PaperFormValues) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    // The server's refusal was about the old value.
    setErrors(({ [key]: _stale, ...rest }) => rest);
  };

  // The server's own id rule, checked as the id is typed (shown once something was typed).
  const idCheck = mode === "create" && values.id !== "" ? paperIdSchema.safeParse(values.id) : null;
  const idError = errors.id ?? (idCheck && !idCheck.success ? idCheck.error.issues[0].message : undefined);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (idCheck && !idCheck.success) return;
    setPending(true);
    setErrors({});
    try {
      if (mode === "create") {
        await fetchJson("/api/papers", jsonInit("POST", values));
        toast.success(`Paper ${values.id} created`);
      } else {
        const { id: _id, ...patch } = values;
        await fetchJson(`/api/papers/${initial.id}`, jsonInit("PATCH", patch));
        toast.success("Paper saved");
      }
      router.push(`/papers/${mode === "create" ? values.id.trim() : initial.id}`);
      router.refresh();
    } catch (err) {
      if (err instanceof ApiClientError) {
        setErrors(Object.fromEntries(err.details.map((d) => [d.path, d.message])));
        toast.error(err.message);
      } else throw err;
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-5">
      {mode === "create" && (
        <Field
          label="Paper id"
          hint={`A slug, as in PaperBench: ${PAPER_ID_RULE}. For example pinn or all-in-one.`}
          error={idError}
        >
          <Input
            name="id"
            value={values.id}
            onChange={set("id")}
            required
            placeholder="my-paper"
            aria-invalid={!!idError}
          />
        </Field>
      )}
      <Field label="Title" error={errors.title}>
        <Input name="title" value={values.title} onChange={set("title")} required aria-invalid={!!errors.title} />
      </Field>
      <Field label="Paper text (markdown)" error={errors.paperMarkdown}>
        <Textarea name="paperMarkdown" rows={10} value={values.paperMarkdown} onChange={set("paperMarkdown")} />
      </Field>
      <Field label="Addendum (markdown)" error={errors.addendum}>
        <Textarea name="addendum" rows={4} value={values.addendum} onChange={set("addendum")} />
      </Field>
      <Field label="Judge addendum (markdown)" error={errors.judgeAddendum}>
        <Textarea name="judgeAddendum" rows={4} value={values.judgeAddendum} onChange={set("judgeAddendum")} />
      </Field>
      <Field label="Blacklist" hint="One URL a line; the agent must not use these." error={errors.blacklist}>
        <Textarea name="blacklist" rows={3} value={values.blacklist} onChange={set("blacklist")} />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => router.back()}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : mode === "create" ? "Create paper" : "Save"}
        </Button>
      </div>
    </form>
  );
}
