"use client";

import { useOrigin } from "@/components/hooks/use-origin";
import { TokensPanel } from "./tokens-panel";

/** A person's own API tokens: the CLI and scripts act with their rights (`Authorization: Bearer …`). */
export function ApiTokensPage() {
  const origin = useOrigin();
  return (
    <section className="max-w-3xl space-y-4" data-testid="api-tokens-page">
      <header>
        <h1 className="text-2xl font-semibold">API tokens</h1>
        <p className="mt-1 text-sm text-zinc-600">
          A token acts as you, with your rights, from scripts and the CLI (
          <code className="font-mono">Authorization: Bearer …</code>). Only its hash is kept: it is shown once. Revoke
          one you no longer use. Changing your password or signing out everywhere revokes every token; tokens cannot
          sign you out or end your sessions.
        </p>
      </header>
      <TokensPanel
        url="/api/users/me/tokens"
        what="API token"
        namePlaceholder="laptop CLI"
        usage={(token) =>
          `STUDIO_TOKEN=${token} npm run submission -- upload ./repo --paper <paper-id> --agent <name> --run 1 --reproduce --wait --url ${origin}`
        }
      />
      <pre className="overflow-x-auto rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs text-zinc-100">
        STUDIO_TOKEN=… npm run submission -- upload ./repo --paper &lt;paper-id&gt; --agent &lt;name&gt; --run 1
        --reproduce --wait --url {origin}
      </pre>
    </section>
  );
}
