import { KeyRound } from "lucide-react";
import Link from "next/link";
import { IntentPrefetch } from "./intent-prefetch";
import { NotificationInbox } from "@/components/notifications/notification-inbox";
import { buttonClass } from "@/components/ui/button";
import { StaffMenu, type NavLink } from "./staff-menu";

/** What the header shows of the signed-in user. */
export interface HeaderUser {
  name: string | null;
  email: string;
  isStaff: boolean;
}

/** The pages only staff use. */
const STAFF_PAGES: NavLink[] = [
  { href: "/evaluations", label: "Evaluations" },
  { href: "/judge-eval", label: "JudgeEval" },
  { href: "/jobs", label: "Jobs" },
  { href: "/runners", label: "Runners" },
  { href: "/judge", label: "Judge" },
  { href: "/judge-lab", label: "Judge lab" },
];

/**
 * The site's header. The page reads the session (components never import the server) and hands
 * over the user and the sign-out server action.
 */
export function SiteHeader({ user, signOutAction }: { user: HeaderUser | null; signOutAction: () => Promise<void> }) {
  return (
    <header className="border-b border-zinc-200 bg-white">
      {/* Its links prefetch on hover or focus only. */}
      <IntentPrefetch className="mx-auto flex max-w-6xl items-center gap-5 whitespace-nowrap px-4 py-3">
        <Link prefetch={false} href="/" className="font-semibold tracking-tight text-zinc-900">
          Rubric Studio
        </Link>
        <nav className="flex items-center gap-3.5 text-sm text-zinc-600">
          {user && (
            <Link prefetch={false} href="/">
              Papers
            </Link>
          )}
          {user && (
            <Link prefetch={false} href="/reviews">
              My reviews
            </Link>
          )}
          {user?.isStaff && (
            <Link prefetch={false} href="/papers/new">
              New paper
            </Link>
          )}
          <Link prefetch={false} href="/leaderboard">
            Leaderboard
          </Link>
          {user?.isStaff && (
            <>
              {/* Every staff page inline where the window is wide enough, else in one menu. */}
              <span className="hidden gap-3.5 xl:flex">
                {STAFF_PAGES.map((link) => (
                  <Link prefetch={false} key={link.href} href={link.href}>
                    {link.label}
                  </Link>
                ))}
              </span>
              <StaffMenu links={STAFF_PAGES} />
            </>
          )}
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">
          {user ? (
            <>
              <NotificationInbox />
              <Link
                prefetch={false}
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
                {user.isStaff && (
                  <span className="ml-1.5 rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-700">staff</span>
                )}
              </span>
              <form action={signOutAction}>
                <button type="submit" className={buttonClass("ghost")}>
                  Sign out
                </button>
              </form>
            </>
          ) : (
            <Link prefetch={false} href="/signin" className={buttonClass("secondary")}>
              Sign in
            </Link>
          )}
        </div>
      </IntentPrefetch>
    </header>
  );
}
