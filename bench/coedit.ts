/**
 * Live co-editing figures, against the built studio (`next start`, NEXT_DIST_DIR or `.next`) over
 * HTTP, with signed-in sessions and the live feed (Server-Sent Events), on the demo rubric:
 *
 * - `coedit_propagation_p95_ms`: 50 clients follow one rubric on one studio (embedded PGlite); one
 *   of them posts an operation; the time from the start of its POST until all 49 others have
 *   received it. p95 of 200 operations after 10 warm-ups, one at a time. Goal < 100 ms.
 * - `coedit_cross_instance_p95_ms`: the same with two studio instances on one PostgreSQL database,
 *   the clients split 25/25 and the writer on the first. Goal < 150 ms.
 * - `coedit_ops_per_s`: 10 clients, each following the rubric and writing (field updates of
 *   leaves, one request in flight each), for 10 s on one studio (PGlite): operations accepted per
 *   second.
 */
import {
  AUTHOR,
  DEMO_PAPER_ID,
  LiveFeed,
  STAFF,
  api,
  assertBuilt,
  postOperation,
  prepareDatabase,
  signIn,
  startStudio,
  type Studio,
} from "@/test/server/harness";
import { percentile, report } from "./support/figures";
import type { NodeRow } from "@/lib/rubric/tree-rows";

const FOLLOWERS = 50;
const WARM_UP = 10;
const OPERATIONS = 200;
const WRITERS = 10;
const WRITE_SECONDS = 10;
const ARRIVAL_TIMEOUT_MS = 10_000;

interface Client {
  cookie: string;
  studio: Studio;
  feed: LiveFeed;
}

/** `count` clients signed in (as the demo staff and author, alternately) on the studios in turn, each following the demo rubric. */
async function followers(
  studios: Studio[],
  count: number,
  since: number,
  onOp: (client: number, revision: number) => void,
): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < count; i++) {
    const studio = studios[i % studios.length];
    const user = i % 2 === 0 ? STAFF : AUTHOR;
    const cookie = await signIn(studio.url, user.email, user.password);
    const feed = new LiveFeed({
      baseUrl: studio.url,
      cookie,
      paperId: DEMO_PAPER_ID,
      onOp: (e) => onOp(i, e.revision),
      onProblem: (m) => console.log(`# follower ${i}: ${m}`),
    });
    clients.push({ cookie, studio, feed });
  }
  await Promise.all(clients.map((c) => c.feed.connect(since)));
  return clients;
}

async function demoLeaves(studio: Studio, cookie: string): Promise<{ revision: number; leaves: NodeRow[] }> {
  const answer = await api<{ revision: number; nodes: NodeRow[] }>(
    studio.url,
    cookie,
    "GET",
    `/api/papers/${DEMO_PAPER_ID}/rubric/nodes`,
  );
  if (answer.status !== 200) throw new Error(`GET nodes answered ${answer.status}`);
  const parents = new Set(answer.body.nodes.map((n) => n.parentKey));
  return { revision: answer.body.revision, leaves: answer.body.nodes.filter((n) => !parents.has(n.key)) };
}

/** p95 (ms) from the writer's POST to the last of the other followers receiving the operation. */
async function propagationP95(studios: Studio[]): Promise<number> {
  const staff = await signIn(studios[0].url, STAFF.email, STAFF.password);
  const { revision, leaves } = await demoLeaves(studios[0], staff);
  // For each revision: how many followers (other than the writer) have it, and when the last did.
  const arrivals = new Map<number, { count: number; last: number; done?: () => void }>();
  const clients = await followers(studios, FOLLOWERS, revision, (client, rev) => {
    if (client === 0) return; // the writer
    let a = arrivals.get(rev);
    if (!a) arrivals.set(rev, (a = { count: 0, last: 0 }));
    a.count++;
    a.last = performance.now();
    if (a.count === FOLLOWERS - 1) a.done?.();
  });
  const writer = clients[0];
  const times: number[] = [];
  try {
    for (let i = 0; i < WARM_UP + OPERATIONS; i++) {
      const leaf = leaves[i % leaves.length];
      const started = performance.now();
      const answer = await postOperation(writer.studio.url, writer.cookie, DEMO_PAPER_ID, {
        clientOpId: `bench-${crypto.randomUUID()}`,
        baseRevision: revision + i,
        op: { kind: "update", key: leaf.key, fields: { weight: 1 + (i % 3) } },
      });
      if (answer.status !== 200)
        throw new Error(`the operation answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      const rev = answer.body.revision!;
      let a = arrivals.get(rev);
      if (!a) arrivals.set(rev, (a = { count: 0, last: 0 }));
      if (a.count < FOLLOWERS - 1) {
        const entry = a;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () =>
              reject(
                new Error(
                  `revision ${rev}: ${entry.count} of ${FOLLOWERS - 1} followers within ${ARRIVAL_TIMEOUT_MS} ms`,
                ),
              ),
            ARRIVAL_TIMEOUT_MS,
          );
          entry.done = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      if (i >= WARM_UP) times.push(a.last - started);
    }
  } finally {
    await Promise.all(clients.map((c) => c.feed.close()));
  }
  console.log(
    `# ${studios.length} instance(s), ${FOLLOWERS} followers, ${OPERATIONS} operations: median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
  );
  return percentile(times, 95);
}

/** Accepted operations per second from WRITERS clients writing at once (each also following). */
async function opsPerSecond(studio: Studio): Promise<number> {
  const staff = await signIn(studio.url, STAFF.email, STAFF.password);
  const { revision, leaves } = await demoLeaves(studio, staff);
  const clients = await followers([studio], WRITERS, revision, () => {});
  let accepted = 0;
  const refused: Record<number, number> = {};
  const started = performance.now();
  const until = started + WRITE_SECONDS * 1000;
  try {
    await Promise.all(
      clients.map(async (client, w) => {
        for (let i = 0; performance.now() < until; i++) {
          const leaf = leaves[(w * 7 + i) % leaves.length];
          const answer = await postOperation(studio.url, client.cookie, DEMO_PAPER_ID, {
            clientOpId: `bench-w${w}-${i}-${crypto.randomUUID()}`,
            baseRevision: revision,
            op:
              i % 2 === 0
                ? { kind: "update", key: leaf.key, fields: { weight: 1 + (i % 4) } }
                : {
                    kind: "update",
                    key: leaf.key,
                    fields: { requirements: `${leaf.requirements} (${w}.${i})` },
                    base: { requirements: leaf.requirements },
                  },
          });
          if (answer.status === 200) accepted++;
          else refused[answer.status] = (refused[answer.status] ?? 0) + 1;
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.feed.close()));
  }
  const seconds = (performance.now() - started) / 1000;
  if (Object.keys(refused).length > 0) console.log(`# not accepted: ${JSON.stringify(refused)}`);
  console.log(`# ${WRITERS} writers: ${accepted} operations accepted in ${seconds.toFixed(1)} s`);
  return accepted / seconds;
}

export async function coeditFigures(): Promise<void> {
  try {
    assertBuilt();
  } catch (err) {
    console.log(`# ${(err as Error).message}: no co-editing figures`);
    return;
  }
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres";

  // One studio on the embedded database.
  const pglite = await prepareDatabase("pglite", 0, "bench-coedit");
  let studio: Studio | null = null;
  try {
    studio = await startStudio(pglite.env);
    report("coedit_propagation_p95_ms", await propagationP95([studio]), "ms");
    report("coedit_ops_per_s", await opsPerSecond(studio), "ops/s");
  } finally {
    await studio?.stop();
    await pglite.drop();
  }

  // Two studios on one PostgreSQL database.
  const postgres = await prepareDatabase("postgres", 0, "bench-coedit");
  const studios: Studio[] = [];
  try {
    studios.push(await startStudio(postgres.env), await startStudio(postgres.env));
    report("coedit_cross_instance_p95_ms", await propagationP95(studios), "ms");
  } finally {
    await Promise.all(studios.map((s) => s.stop()));
    await postgres.drop();
  }
}

// Run on its own: `npx tsx --conditions=react-server bench/coedit.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await coeditFigures();
