"use client";

import Link from "next/link";
import { useState, type ComponentProps } from "react";

/**
 * A link that prefetches its page when the pointer or the keyboard reaches it, not when it scrolls
 * into view. The header is on every page: its ten links in view fired ten server renders of other
 * pages while the page itself was still loading, on the same server as its own data (the review
 * page's grading waited behind them). Intent is early enough: the page is fetched between hover and
 * click.
 */
export function IntentLink(props: ComponentProps<typeof Link>) {
  const [intent, setIntent] = useState(false);
  const { onMouseEnter, onFocus, onTouchStart } = props;
  return (
    <Link
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={(e) => {
        setIntent(true);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        setIntent(true);
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        setIntent(true);
        onTouchStart?.(e);
      }}
    />
  );
}
