import { PGlite, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareStatements } from "./pglite-statements";

// Two in-memory databases for the file (each takes seconds to start): one with the cache, one
// PGlite as it comes, given the same statements. Every test starts from a new table; statements
// the cache kept from earlier tests are planned again over it (PostgreSQL re-plans by itself).
let cached: PGlite;
let plain: PGlite;

const SETUP = `
  drop table if exists items;
  create table items (
    id serial primary key,
    name text not null unique,
    weight real,
    done boolean not null default false,
    meta jsonb,
    tags text[],
    at timestamptz,
    ref uuid
  );
  insert into items (name, weight, done, meta, tags, at, ref) values
    ('a', 1.5, true, '{"k": [1, 2]}', '{x,y}', '2026-11-29T10:00:00Z', '0b7f2d2e-4c3a-4e0e-9d6f-2f1b7c9a1e01'),
    ('b', null, false, null, null, null, null);
`;

/** The texts prepared now, as PostgreSQL lists them. */
async function prepared(): Promise<string[]> {
  const { rows } = await cached.query<{ statement: string }>("select statement from pg_prepared_statements");
  return rows.map((r) => r.statement);
}

beforeAll(async () => {
  [cached, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
  prepareStatements(cached, 4);
});

beforeEach(async () => {
  await Promise.all([cached.exec(SETUP), plain.exec(SETUP)]);
});

afterAll(async () => {
  await Promise.all([cached?.close(), plain?.close()]);
});

describe("prepareStatements", () => {
  it("answers as PGlite's own query does: rows, types, nulls, row modes, the caller's parsers, affected rows", async () => {
    const cases: [string, unknown[], Parameters<PGlite["query"]>[2]?][] = [
      ["select * from items where weight > $1 or weight is null order by id", [0]],
      ["select id, name, meta, tags from items where name = any($1) order by id", [["a", "b"]], { rowMode: "array" }],
      ["select at from items where done = $1", [true], { parsers: { [types.TIMESTAMPTZ]: (v: string) => `raw:${v}` } }],
      ["update items set weight = $1 where name = $2", [2.5, "a"]],
      [
        "insert into items (name, meta, at) values ($1, $2, $3) returning id, meta, at",
        ["c", { deep: { n: 1 } }, new Date("2026-01-02T03:04:05Z")],
      ],
      ["delete from items where name in ($1, $2)", ["b", "c"]],
      ["select count(*)::int as n, max(weight) as top from items", []],
      // Two columns of one name: the last one wins in an object, both stay in an array.
      ["select name as x, weight as x from items order by id", []],
      ["select name as x, weight as x from items order by id", [], { rowMode: "array" }],
      ["select name from items where id < $1", [0]],
    ];
    for (const [text, params, options] of cases) {
      const mine = await cached.query(text, params, options);
      const theirs = await plain.query(text, params, options);
      expect(mine, text).toEqual(theirs);
    }
  });

  it("parses and plans a text once, and runs it again with other values", async () => {
    const text = "select name from items where id = $1";
    expect((await cached.query<{ name: string }>(text, [1])).rows).toEqual([{ name: "a" }]);
    expect((await cached.query<{ name: string }>(text, [2])).rows).toEqual([{ name: "b" }]);
    expect((await cached.query<{ name: string }>(text, [3])).rows).toEqual([]);
    expect((await prepared()).filter((t) => t === text)).toHaveLength(1);
  });

  it("closes the least recently used statement beyond its capacity", async () => {
    for (let i = 0; i < 6; i++) await cached.query(`select ${i} as lru`);
    // Re-used after five others: it was closed and is prepared again.
    expect((await cached.query<{ lru: number }>("select 0 as lru")).rows).toEqual([{ lru: 0 }]);
    // Closes go out with the next statement (here the catalog's): the capacity, the catalog's included.
    const texts = await prepared();
    expect(texts).toHaveLength(4);
    expect(texts).toContain("select 0 as lru");
    expect(texts).not.toContain("select 1 as lru");
  });

  it("throws PGlite's error with the query and its values, caches nothing broken, and keeps going", async () => {
    const duplicate = cached.query("insert into items (name) values ($1)", ["a"]);
    await expect(duplicate).rejects.toMatchObject({
      code: "23505",
      query: "insert into items (name) values ($1)",
      params: ["a"],
    });
    await expect(cached.query("selec nothing")).rejects.toMatchObject({ code: "42601", query: "selec nothing" });
    expect(await prepared()).not.toContain("selec nothing");
    expect((await cached.query<{ n: number }>("select count(*)::int as n from items")).rows).toEqual([{ n: 2 }]);
  });

  it("runs a transaction's statements through the cache, and rolls back as before", async () => {
    await expect(
      cached.transaction(async (tx) => {
        await tx.query("insert into items (name) values ($1)", ["in-tx"]);
        await tx.query("insert into items (name) values ($1)", ["a"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    // The statement prepared inside the rolled-back transaction is still there and still works.
    await cached.query("insert into items (name) values ($1)", ["after"]);
    const { rows } = await cached.query<{ name: string }>("select name from items order by id");
    expect(rows.map((r) => r.name)).toEqual(["a", "b", "after"]);
    expect(await prepared()).toContain("insert into items (name) values ($1)");
  });

  it("keeps a statement outside a transaction out of it: it waits for the transaction to end", async () => {
    let outside: Promise<{ rows: { n: number }[] }> | null = null;
    await expect(
      cached.transaction(async (tx) => {
        await tx.query("insert into items (name) values ($1)", ["uncommitted"]);
        outside = cached.query<{ n: number }>("select count(*)::int as n from items");
        // More statements of the transaction: each gives the outside one a chance to cut in.
        for (let i = 0; i < 5; i++) await tx.query("select $1::int as i", [i]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await outside!).rows).toEqual([{ n: 2 }]);
  });

  it("refuses a closed transaction's statements as PGlite does", async () => {
    let kept: Parameters<Parameters<PGlite["transaction"]>[0]>[0] | null = null;
    await cached.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query("select 1")).rejects.toThrow("Transaction is closed");
  });

  it("prepares a statement again after it was deallocated or its table changed", async () => {
    const text = "select * from items where id = $1";
    expect((await cached.query(text, [1])).rows).toHaveLength(1);
    await cached.exec("deallocate all");
    expect((await cached.query<{ name: string }>(text, [1])).rows[0].name).toBe("a");
    await cached.exec("alter table items add column extra text default 'new'");
    expect((await cached.query<{ extra: string }>(text, [1])).rows[0].extra).toBe("new");
  });

  it("leaves to PGlite the queries it does not handle (declared parameter types)", async () => {
    const { rows } = await cached.query<{ t: string }>("select $1 as typed", ["x"], { paramTypes: [types.TEXT] });
    expect(rows).toEqual([{ typed: "x" }]);
    expect(await prepared()).not.toContain("select $1 as typed");
  });
});
