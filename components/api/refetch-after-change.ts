import { hashKey, type QueryClient, type QueryKey } from "@tanstack/react-query";

/** Per client, the queries that already have a read promised after the one in flight. */
const promised = new WeakMap<QueryClient, Map<string, Promise<void>>>();

/**
 * Someone said that what `queryKey` shows has changed (a live feed's nudge, one's own change):
 * makes sure it is read again by a request sent after now.
 *
 * `invalidateQueries` alone does not: while a query's first read is in flight (no data yet),
 * React Query hands the refetch that same request, which may have been answered before the change,
 * and the page keeps the old answer until the next nudge (an editor opened just before a sign-off
 * said "Draft" for good). With data, it cancels the read in flight and starts another each time, so
 * nudges faster than a read never let one finish. Here a read in flight is left to finish, then one
 * more is made; every nudge meanwhile shares that one.
 */
export function refetchAfterChange(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  if (queryClient.isFetching({ queryKey }) === 0) return queryClient.invalidateQueries({ queryKey });
  let byKey = promised.get(queryClient);
  if (!byKey) promised.set(queryClient, (byKey = new Map()));
  const hash = hashKey(queryKey);
  const already = byKey.get(hash);
  if (already) return already;
  const reads = byKey;
  const next = queryClient
    .invalidateQueries({ queryKey }, { cancelRefetch: false })
    .catch(() => {})
    .then(() => {
      reads.delete(hash);
      return queryClient.invalidateQueries({ queryKey });
    });
  reads.set(hash, next);
  return next;
}
