"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Toaster } from "sonner";
import { z } from "zod";
import { createQueryClient } from "@/components/api/query-client";

// The studio's Content-Security-Policy allows no eval: zod would probe for it (`Function("")`) at
// its first object parse to compile faster parsers, and the browser reports the refused probe as a
// CSP violation. The browser parses small payloads; the server keeps the compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster richColors position="bottom-right" />
    </QueryClientProvider>
  );
}
