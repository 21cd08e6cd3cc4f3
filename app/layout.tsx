import type { Metadata } from "next";
import type { ReactNode } from "react";
import { signOut } from "@/auth";
import { DemoNotice } from "@/components/demo/demo-notice";
import { SiteHeader } from "@/components/layout/site-header";
import { Providers } from "@/components/providers";
import { getCurrentUser } from "@/server/auth/session";
import { holdsDemoData } from "@/server/demo/demo-status";
import { getStore } from "@/server/store";
// The toasts' styles with the page's own CSS: sonner would add them as a <style> when its script
// runs, after the page's first style pass, and the browser then rebuilt its style rules (patches/README.md).
import "sonner/dist/styles.css";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Rubric Studio", template: "%s · Rubric Studio" },
  description: "Build, weight and review PaperBench-style grading rubrics together.",
};

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: "/" });
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [user, demo] = await Promise.all([getCurrentUser(), getStore().then(holdsDemoData)]);
  return (
    <html lang="en" dir="ltr">
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased">
        <Providers>
          <SiteHeader
            user={user && { name: user.name, email: user.email, isStaff: user.isStaff }}
            signOutAction={signOutAction}
          />
          {demo && <DemoNotice canDelete={!!user?.isStaff} signedInAsDemo={!!user?.isDemo} />}
          <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
