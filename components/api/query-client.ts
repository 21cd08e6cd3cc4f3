import { QueryClient } from "@tanstack/react-query";

/** One factory for the browser's query client (and any server prefetch). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: (count, err) => !(err instanceof Error && "status" in err) && count < 2 },
    },
  });
}
