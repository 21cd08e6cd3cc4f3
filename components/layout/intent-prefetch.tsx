"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, type ComponentProps, type ReactNode } from "react";

/**
 * Prefetches the page of a link inside it when the pointer or the keyboard reaches the link (its
 * links say `prefetch={false}`), not when it scrolls into view. The header is on every page: its
 * ten links in view fired ten server renders of other pages while the page itself was still
 * loading, on the same server as its own data (the review page's grading waited behind them).
 * Intent is early enough: the page is fetched between hover and click. One listener for all the
 * links inside: a client component per link cost every server render of every page.
 */
export function IntentPrefetch({ className, children }: { className?: string; children: ReactNode }) {
  const router = useRouter();
  const fetched = useRef(new Set<string>());
  const prefetch = (target: EventTarget) => {
    const href = target instanceof Element ? target.closest("a[href^='/']")?.getAttribute("href") : null;
    if (!href || fetched.current.has(href)) return;
    fetched.current.add(href);
    router.prefetch(href);
  };
  return (
    <div className={className} onPointerOver={(e) => prefetch(e.target)} onFocus={(e) => prefetch(e.target)}>
      {children}
    </div>
  );
}

/**
 * One link that fetches its page on intent, for a client component's link in view while its page
 * loads (the editor's and the review page's): `prefetch={false}` inside an `IntentPrefetch` that
 * takes no box of its own.
 */
export function IntentLink(props: Omit<ComponentProps<typeof Link>, "prefetch">) {
  return (
    <IntentPrefetch className="contents">
      <Link {...props} prefetch={false} />
    </IntentPrefetch>
  );
}
