/**
 * The set-up most server test files repeated: a prepared database, the built studio started on it
 * and staff signed in, made in `beforeAll` and taken away in `afterAll`. `studioSuite` registers
 * both hooks in the describe block it is called in and hands back getters for what they made;
 * `twoStudiosSuite` does the same for two studio processes on one PostgreSQL database.
 *
 * It imports vitest, so it lives apart from harness.ts (which bench/ uses outside vitest too).
 *
 * Hook order: call `studioSuite` before registering a describe block's own hooks. Its `beforeAll`
 * then runs first, so theirs see the studio; `afterAll` hooks run in reverse order of registration
 * (`sequence.hooks: "stack"`, pinned in vitest.server.config.ts), so theirs (stopping runners,
 * closing streams) run while the studio is still up, and an `afterAll` registered before the call
 * runs after the database is dropped.
 */
import { afterAll, beforeAll } from "vitest";
import {
  AUTHOR,
  DEMO_PAPER_ID,
  LiveFeed,
  STAFF,
  prepareDatabase,
  signIn,
  startStudio,
  type FeedEvent,
  type PreparedDatabase,
  type Studio,
} from "./harness";

/** What a suite's `beforeAll` made; a clear error when a test reads it before, or after that hook failed. */
function madeBy<T>(suite: string, value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${suite}: ${what} read before its beforeAll made it (or after it failed)`);
  return value;
}

export interface StudioSuiteOptions {
  /** Users beyond the demo seed's (see prepareDatabase); default 0. */
  extraUsers?: number;
  /** More preparation on the open database, after the seed and the extra users (prepareDatabase's). */
  setup?: Parameters<typeof prepareDatabase>[3];
  /** More environment for the studio process, over the database's. */
  env?: Record<string, string> | ((db: PreparedDatabase) => Record<string, string>);
  /** Sign staff in once the studio answers (default true): `staff` is the session's Cookie header. */
  signInStaff?: boolean;
  /** The `beforeAll` hook's timeout in ms (default: the config's hookTimeout). */
  timeout?: number;
}

export interface StudioSuite {
  readonly db: PreparedDatabase;
  readonly studio: Studio;
  /** The studio's base URL (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** The Cookie header of staff's session. */
  readonly staff: string;
}

/**
 * Registers `beforeAll` (database, studio, staff's sign-in) and `afterAll` (stop the studio, drop
 * the database: whatever was made, also after a failed `beforeAll`) in the current describe block.
 * Its getters throw until the `beforeAll` has made what they return.
 */
export function studioSuite(kind: "pglite" | "postgres", label: string, opts: StudioSuiteOptions = {}): StudioSuite {
  const signInStaff = opts.signInStaff ?? true;
  let db: PreparedDatabase | undefined;
  let studio: Studio | undefined;
  let staff: string | undefined;

  beforeAll(async () => {
    db = await prepareDatabase(kind, opts.extraUsers ?? 0, label, opts.setup);
    const env = typeof opts.env === "function" ? opts.env(db) : opts.env;
    studio = await startStudio({ ...db.env, ...env });
    if (signInStaff) staff = await signIn(studio.url, STAFF.email, STAFF.password);
  }, opts.timeout);

  afterAll(async () => {
    try {
      await studio?.stop();
    } finally {
      await db?.drop();
    }
  });

  const made = <T>(value: T | undefined, what: string) => madeBy(`studioSuite(${kind}, "${label}")`, value, what);
  return {
    get db() {
      return made(db, "the database");
    },
    get studio() {
      return made(studio, "the studio");
    },
    get url() {
      return made(studio, "the studio's URL").url;
    },
    get staff() {
      if (!signInStaff) throw new Error(`studioSuite(${kind}, "${label}") was made with signInStaff: false`);
      return made(staff, "staff's cookie");
    },
  };
}

/** A live feed opened by TwoStudiosSuite.follow, with what it has received. */
export interface FollowedFeed {
  feed: LiveFeed;
  events: FeedEvent[];
  problems: string[];
}

export interface TwoStudiosSuite {
  readonly db: PreparedDatabase;
  readonly a: Studio;
  readonly b: Studio;
  /** The Cookie header of staff's session, signed in on A. */
  readonly cookieA: string;
  /** The Cookie header of the demo author's session, signed in on B. */
  readonly cookieB: string;
  /**
   * Follows the demo paper's live feed on `studio` after revision `since`, reconnecting as a
   * browser's EventSource does should the server end the stream; closed before the studios stop.
   */
  follow(studio: Studio, cookie: string, since: number): Promise<FollowedFeed>;
}

/**
 * Two studio processes on one fresh PostgreSQL database (two-instances, fault-db-restart): the
 * same as studioSuite, with staff signed in on A and the demo author on B. Its `afterAll` closes
 * the feeds opened with `follow`, stops both studios and drops the database.
 */
export function twoStudiosSuite(label: string): TwoStudiosSuite {
  let db: PreparedDatabase | undefined;
  let a: Studio | undefined;
  let b: Studio | undefined;
  let cookieA: string | undefined;
  let cookieB: string | undefined;
  const feeds: LiveFeed[] = [];

  beforeAll(async () => {
    db = await prepareDatabase("postgres", 0, label);
    const started = await Promise.allSettled([startStudio(db.env), startStudio(db.env)]);
    if (started[0].status === "fulfilled") a = started[0].value;
    if (started[1].status === "fulfilled") b = started[1].value;
    for (const s of started) if (s.status === "rejected") throw s.reason;
    cookieA = await signIn(a!.url, STAFF.email, STAFF.password);
    cookieB = await signIn(b!.url, AUTHOR.email, AUTHOR.password);
  });

  afterAll(async () => {
    try {
      await Promise.all(feeds.map((f) => f.close()));
      await Promise.all([a?.stop(), b?.stop()]);
    } finally {
      await db?.drop();
    }
  });

  const made = <T>(value: T | undefined, what: string) => madeBy(`twoStudiosSuite("${label}")`, value, what);
  return {
    get db() {
      return made(db, "the database");
    },
    get a() {
      return made(a, "studio A");
    },
    get b() {
      return made(b, "studio B");
    },
    get cookieA() {
      return made(cookieA, "staff's cookie on A");
    },
    get cookieB() {
      return made(cookieB, "the author's cookie on B");
    },
    async follow(studio, cookie, since) {
      const events: FeedEvent[] = [];
      const problems: string[] = [];
      const feed = new LiveFeed({
        baseUrl: studio.url,
        cookie,
        paperId: DEMO_PAPER_ID,
        onOp: (e) => events.push(e),
        onProblem: (m) => problems.push(m),
      });
      feeds.push(feed);
      await feed.connect(since);
      return { feed, events, problems };
    },
  };
}
