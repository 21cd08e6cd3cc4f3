import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "@/auth";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { oauthProviders } from "@/server/auth/providers";
import { listDemoSignIns } from "@/server/demo/demo-status";
import { getStore } from "@/server/store";
import { retryAfterFromCode } from "@/lib/auth/sign-in-throttle";

export const metadata = { title: "Sign in" };

/** What went wrong, from the `error` and `code` Auth.js gives a failed sign-in (the same on this page's form and on its own routes). */
function signInErrorMessage(error: string, code: string | undefined): string {
  if (error !== "CredentialsSignin") return "Sign-in failed; try again.";
  const retryAfter = retryAfterFromCode(code);
  if (retryAfter !== null) return `Too many failed sign-in attempts. Try again in ${retryAfter} s.`;
  return "That email and password do not match an account.";
}

/** Only same-site paths: an open redirect would send a signed-in user anywhere. */
function safeCallback(raw: string | undefined): string {
  return raw && raw.startsWith("/") && !raw.startsWith("//") ? raw : "/";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string; code?: string }>;
}) {
  const { callbackUrl, error, code } = await searchParams;
  const redirectTo = safeCallback(callbackUrl);
  const providers = oauthProviders().info;
  // Embedded mode with the demo seeded only: never on PostgreSQL, never once the demo is deleted.
  const demoAccounts = await listDemoSignIns(await getStore());

  async function signInWithPassword(formData: FormData) {
    "use server";
    try {
      await signIn("credentials", {
        email: formData.get("email"),
        password: formData.get("password"),
        redirectTo,
      });
    } catch (err) {
      if (err instanceof AuthError) {
        const params = new URLSearchParams({ error: err.type, callbackUrl: redirectTo });
        if (err instanceof CredentialsSignin) params.set("code", err.code);
        redirect(`/signin?${params}`);
      }
      throw err;
    }
  }

  return (
    <div className="mx-auto mt-10 max-w-sm rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-semibold">Sign in to Rubric Studio</h1>
      {error && (
        <p role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {signInErrorMessage(error, code)}
        </p>
      )}
      <form action={signInWithPassword} className="space-y-3">
        <Field label="Email">
          <Input name="email" type="email" autoComplete="email" required autoFocus />
        </Field>
        <Field label="Password">
          <Input name="password" type="password" autoComplete="current-password" required />
        </Field>
        <Button type="submit" className="w-full">
          Sign in
        </Button>
      </form>
      {demoAccounts.length > 0 && (
        <section
          aria-labelledby="demo-accounts"
          data-testid="demo-accounts"
          className="mt-5 border-t border-zinc-200 pt-4"
        >
          <h2 id="demo-accounts" className="text-sm font-semibold">
            Demo accounts
          </h2>
          <p className="mt-0.5 text-xs text-zinc-500">Seeded in the embedded mode, one per role, to try the studio.</p>
          <ul className="mt-2 divide-y divide-zinc-100 rounded-md border border-zinc-200">
            {demoAccounts.map((a) => (
              <li key={a.email} className="flex items-center gap-3 px-3 py-2" data-testid="demo-account">
                <div className="min-w-0 flex-1 text-xs">
                  <div className="text-sm font-medium text-zinc-800">
                    {a.name} <span className="font-normal text-zinc-500">· {a.role}</span>
                  </div>
                  <div className="truncate font-mono text-zinc-700">{a.email}</div>
                  <div className="font-mono text-zinc-500">
                    password: <span className="text-zinc-700">{a.password}</span>
                  </div>
                </div>
                <form action={signInWithPassword}>
                  <input type="hidden" name="email" value={a.email} />
                  <input type="hidden" name="password" value={a.password} />
                  <Button type="submit" variant="secondary" aria-label={`Sign in as ${a.name} (${a.role})`}>
                    Sign in
                  </Button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      )}
      {providers.length > 0 && (
        <div className="mt-5 space-y-2 border-t border-zinc-200 pt-4">
          {providers.map((p) => (
            <form
              key={p.id}
              action={async () => {
                "use server";
                await signIn(p.id, { redirectTo });
              }}
            >
              <Button type="submit" variant="secondary" className="w-full">
                Continue with {p.name}
              </Button>
            </form>
          ))}
        </div>
      )}
    </div>
  );
}
