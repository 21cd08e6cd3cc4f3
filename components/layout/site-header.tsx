import { KeyRound } from "lucide-react";
import { IntentLink } from "./intent-link";
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
      <div className="mx-auto flex max-w-6xl items-center gap-5 whitespace-nowrap px-4 py-3">
        <IntentLink href="/" className="font-semibold tracking-tight text-zinc-900">
          Rubric Studio
        </IntentLink>
        <nav className="flex items-center gap-3.5 text-sm text-zinc-600">
          {user && <IntentLink href="/">Papers</IntentLink>}
          {user && <IntentLink href="/reviews">My reviews</IntentLink>}
          {user?.isStaff && <IntentLink href="/papers/new">New paper</IntentLink>}
          <IntentLink href="/leaderboard">Leaderboard</IntentLink>
          {user?.isStaff && (
            <>
              {/* Every staff page inline where the window is wide enough, else in one menu. */}
              <span className="hidden gap-3.5 xl:flex">
                {STAFF_PAGES.map((link) => (
                  <IntentLink key={link.href} href={link.href}>
                    {link.label}
                  </IntentLink>
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
              <IntentLink
                href="/settings/tokens"
                className="rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                title="API tokens: personal tokens for the CLI and scripts"
                aria-label="API tokens"
                data-testid="api-tokens-link"
              >
                <KeyRound size={16} aria-hidden />
              </IntentLink>
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
            <IntentLink href="/signin" className={buttonClass("secondary")}>
              Sign in
            </IntentLink>
          )}
        </div>
      </div>
    </header>
  );
}
