import { KeyRound } from "lucide-react";
import Link from "next/link";
import { NotificationInbox } from "@/components/notifications/notification-inbox";
import { buttonClass } from "@/components/ui/button";

/** What the header shows of the signed-in user. */
export interface HeaderUser {
  name: string | null;
  email: string;
  isStaff: boolean;
}

/**
 * The site's header. The page reads the session (components never import the server) and hands
 * over the user and the sign-out server action.
 */
export function SiteHeader({ user, signOutAction }: { user: HeaderUser | null; signOutAction: () => Promise<void> }) {
  return (
    <header className="border-b border-zinc-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center gap-5 whitespace-nowrap px-4 py-3">
        <Link href="/" className="font-semibold tracking-tight text-zinc-900">
          Rubric Studio
        </Link>
        <nav className="flex gap-3.5 text-sm text-zinc-600">
          {user && <Link href="/">Papers</Link>}
          {user && <Link href="/reviews">My reviews</Link>}
          {user?.isStaff && <Link href="/papers/new">New paper</Link>}
          <Link href="/leaderboard">Leaderboard</Link>
          {user?.isStaff && <Link href="/evaluations">Evaluations</Link>}
          {user?.isStaff && <Link href="/judge-eval">JudgeEval</Link>}
          {user?.isStaff && <Link href="/jobs">Jobs</Link>}
          {user?.isStaff && <Link href="/runners">Runners</Link>}
          {user?.isStaff && <Link href="/judge">Judge</Link>}
          {user?.isStaff && <Link href="/judge-lab">Judge lab</Link>}
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">
          {user ? (
            <>
              <NotificationInbox />
              <Link
                href="/settings/tokens"
                className="rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                title="API tokens: personal tokens for the CLI and scripts"
                aria-label="API tokens"
                data-testid="api-tokens-link"
              >
                <KeyRound size={16} aria-hidden />
              </Link>
              <span data-testid="current-user" className="text-zinc-600">
                {user.name ?? user.email}
                {user.isStaff && <span className="ml-1.5 rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-700">staff</span>}
              </span>
              <form action={signOutAction}>
                <button type="submit" className={buttonClass("ghost")}>
                  Sign out
                </button>
              </form>
            </>
          ) : (
            <Link href="/signin" className={buttonClass("secondary")}>
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
