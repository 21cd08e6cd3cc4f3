/**
 * A route's JSON answer as a route test reads it: any shape, any depth. The test's assertions (`toEqual`,
 * `toMatchObject`, `toBe`) say what shape it expects; declaring each route's answer again here would repeat
 * the route's types without checking them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a loose view of parsed JSON, see above
export type JsonBody = Record<string, any>;
