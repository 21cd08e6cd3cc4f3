/**
 * How fresh the public leaderboard is. Under load, one check for changes serves every request of
 * the moment (`getLeaderboard`'s `maxStaleMs`), and the page a signed-out visitor is sent is kept as
 * long (`proxy.ts`): a change shows on the API within this time, and on the public page within twice it.
 */
export const LEADERBOARD_MAX_STALE_MS = 250;
