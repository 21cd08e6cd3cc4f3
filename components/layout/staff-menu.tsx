"use client";

import { ChevronDown } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export interface NavLink {
  href: string;
  label: string;
}

/**
 * The staff pages as one "Staff" menu, for windows too narrow for every link in the header (below
 * 1280 px, where the user's name and Sign out were pushed out of view). It closes when a page opens,
 * on Escape and on a click elsewhere; a plain <details>, so it opens without script too.
 */
export function StaffMenu({ links }: { links: NavLink[] }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();
  useEffect(() => {
    ref.current?.removeAttribute("open");
  }, [pathname]);
  useEffect(() => {
    const close = (e: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !details.contains(e.target as Node))
        details.removeAttribute("open");
    };
    document.addEventListener("keydown", close);
    document.addEventListener("pointerdown", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("pointerdown", close);
    };
  }, []);
  return (
    <details ref={ref} className="relative xl:hidden" data-testid="staff-menu">
      <summary className="flex cursor-pointer list-none items-center gap-1 hover:text-zinc-900 [&::-webkit-details-marker]:hidden">
        Staff
        <ChevronDown size={14} aria-hidden />
      </summary>
      <ul className="absolute left-0 top-full z-40 mt-2 min-w-44 rounded-md border border-zinc-200 bg-white py-1 shadow-lg">
        {links.map((link) => (
          <li key={link.href}>
            <Link prefetch={false} href={link.href} className="block px-3 py-1.5 hover:bg-zinc-50 hover:text-zinc-900">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
