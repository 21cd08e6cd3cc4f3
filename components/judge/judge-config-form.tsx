"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { JUDGE_KINDS, JUDGE_MODES, O3_MINI_CONFIG, REASONING_EFFORTS, type JudgeConfigInput } from "@/lib/judge/config";

/** A new configuration starts from PaperBench's o3-mini, unnamed. */
export const NEW_JUDGE_CONFIG: JudgeConfigInput = { ...O3_MINI_CONFIG, name: "" };

const SELECT = "h-8 w-full rounded-md border border-zinc-300 bg-white px-2 text-sm";

/** Every field of a judge configuration; the API key is the *name* of a variable, never the key. */
export function JudgeConfigForm({
  initial,
  apiKeySet,
  submitLabel,
  pending,
  error,
  fieldErrors,
  onSubmit,
  paperbenchUnavailable = null,
}: {
  /** Why paperbench mode cannot run here (PaperBench's prompts unreadable), or null. */
  paperbenchUnavailable?: string | null;
  initial: JudgeConfigInput;
  apiKeySet: boolean | null;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  fieldErrors: Record<string, string>;
  onSubmit(config: JudgeConfigInput): void;
}) {
  const [c, setC] = useState(initial);
  const set = <K extends keyof JudgeConfigInput>(key: K, value: JudgeConfigInput[K]) =>
    setC((prev) => ({ ...prev, [key]: value }));
  const text = (key: "name" | "model") => ({
    value: c[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, e.target.value),
  });
  const nullable = (key: "baseUrl" | "apiKeyEnv" | "parseModel") => ({
    value: c[key] ?? "",
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      set(key, e.target.value.trim() === "" ? null : e.target.value),
  });
  const num = (
    key: "contextWindow" | "maxConcurrency" | "priceInputPerM" | "priceCachedInputPerM" | "priceOutputPerM",
  ) => ({
    value: String(c[key]),
    inputMode: "decimal" as const,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, Number(e.target.value)),
  });
  const optNum = (key: "requestsPerMinute" | "tokensPerMinute") => ({
    value: c[key] === null ? "" : String(c[key]),
    inputMode: "numeric" as const,
    placeholder: "no limit",
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      set(key, e.target.value.trim() === "" ? null : Number(e.target.value)),
  });
  const llm = c.kind === "llm";
  return (
    <form
      className="grid gap-3 sm:grid-cols-2"
      data-testid="judge-config-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(c);
      }}
    >
      <Field label="Name" error={fieldErrors.name}>
        <Input {...text("name")} aria-label="Name" />
      </Field>
      <Field label="Kind" error={fieldErrors.kind}>
        <select
          className={SELECT}
          value={c.kind}
          onChange={(e) => set("kind", e.target.value as JudgeConfigInput["kind"])}
          aria-label="Kind"
        >
          {JUDGE_KINDS.map((k) => (
            <option key={k} value={k}>
              {k === "llm" ? "LLM (OpenAI-compatible)" : k === "dummy" ? "Dummy (every leaf 1)" : "Random"}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Model" error={fieldErrors.model}>
        <Input {...text("model")} aria-label="Model" />
      </Field>
      <Field
        label="Base URL"
        hint="Empty: OpenAI. Azure OpenAI, vLLM, Ollama, LiteLLM: their /v1 URL"
        error={fieldErrors.baseUrl}
      >
        <Input {...nullable("baseUrl")} placeholder="https://api.openai.com/v1" aria-label="Base URL" disabled={!llm} />
      </Field>
      <Field
        label="API key variable"
        hint={
          apiKeySet === null
            ? "OPENAI_API_KEY or a JUDGE_KEY_… variable holding the key on the server (never the key)"
            : apiKeySet
              ? "Set on the server"
              : "Not set on the server: runs cannot start until it is"
        }
        error={fieldErrors.apiKeyEnv}
      >
        <Input
          {...nullable("apiKeyEnv")}
          placeholder="OPENAI_API_KEY"
          aria-label="API key variable"
          disabled={!llm}
          data-testid="api-key-env"
        />
      </Field>
      <Field label="Reasoning effort" error={fieldErrors.reasoningEffort}>
        <select
          className={SELECT}
          value={c.reasoningEffort ?? ""}
          onChange={(e) => set("reasoningEffort", (e.target.value || null) as JudgeConfigInput["reasoningEffort"])}
          aria-label="Reasoning effort"
        >
          <option value="">(the model&apos;s default)</option>
          {REASONING_EFFORTS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Context window (tokens)" error={fieldErrors.contextWindow}>
        <Input {...num("contextWindow")} aria-label="Context window" />
      </Field>
      <Field label="Max concurrent requests" error={fieldErrors.maxConcurrency}>
        <Input {...num("maxConcurrency")} aria-label="Max concurrent requests" />
      </Field>
      <Field label="Requests per minute" error={fieldErrors.requestsPerMinute}>
        <Input {...optNum("requestsPerMinute")} aria-label="Requests per minute" />
      </Field>
      <Field label="Tokens per minute" error={fieldErrors.tokensPerMinute}>
        <Input {...optNum("tokensPerMinute")} aria-label="Tokens per minute" />
      </Field>
      <Field label="Input $ / M tokens" error={fieldErrors.priceInputPerM}>
        <Input {...num("priceInputPerM")} aria-label="Input price" />
      </Field>
      <Field label="Cached input $ / M tokens" error={fieldErrors.priceCachedInputPerM}>
        <Input {...num("priceCachedInputPerM")} aria-label="Cached input price" />
      </Field>
      <Field label="Output $ / M tokens" error={fieldErrors.priceOutputPerM}>
        <Input {...num("priceOutputPerM")} aria-label="Output price" />
      </Field>
      <Field
        label="Mode"
        hint={
          paperbenchUnavailable
            ? `paperbench mode is unavailable here: ${paperbenchUnavailable}`
            : "paperbench: PaperBench's SimpleJudge, call for call, for comparable figures"
        }
        error={fieldErrors.mode}
      >
        <select
          className={SELECT}
          value={c.mode}
          onChange={(e) => set("mode", e.target.value as JudgeConfigInput["mode"])}
          aria-label="Mode"
        >
          {JUDGE_MODES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Parse model" hint="PaperBench: gpt-4o-2024-08-06" error={fieldErrors.parseModel}>
        <Input {...nullable("parseModel")} aria-label="Parse model" />
      </Field>
      <div className="flex items-end justify-end gap-2 sm:col-span-2">
        <FormError error={error} />
        <Button type="submit" disabled={pending} data-testid="judge-config-save">
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
