import "server-only";
import {
  parse as pgParse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";

/**
 * Named prepared statements for the embedded database: each distinct SQL text is parsed and planned
 * once, then run with one call into PGlite (bind, execute, sync) instead of six.
 *
 * Why: PGlite's `query` sends every statement as an unnamed one, one protocol message per call
 * (parse, describe, bind, describe, execute, sync), so PostgreSQL parses and plans it anew each
 * time. Drizzle builds the same few texts over and over (the editor's operation runs seven), and
 * planning was most of their cost: the access check's four-table join took 0.61 ms as PGlite sends
 * it and 0.17 ms as a named statement (measured in one process, 2,000 runs each). PostgreSQL itself
 * re-plans a named statement when a table it reads changes.
 *
 * What stays PGlite's: the locks (a statement outside a transaction waits for one that is open, as
 * `query` does), the parameter serializers and value parsers (by the types the statement's
 * description gives, and the caller's `parsers`/`serializers`; the answer's shape is PGlite's, built
 * here: see `results`), errors (PGlite's DatabaseError with
 * the query and its parameters, as `query` throws it) and the sync to disk after a statement outside
 * a transaction. A query with options this does not handle (`paramTypes`, `blob`) goes to PGlite's
 * own `query`.
 */

/** How many statements stay prepared; the least recently used one is closed first. */
export const STATEMENT_CAPACITY = 256;

/** Errors after which a statement is prepared again: it was deallocated, or a table it reads changed shape. */
const STALE_STATEMENT = new Set(["26000", "0A000"]);

interface Prepared {
  name: string;
  /** Parameter type ids, from the statement's description: they choose each value's serializer. */
  paramTypes: number[];
  /** The columns of the statement's rows, from its description (empty for one that returns none). */
  fields: Field[];
}

/** A column as PGlite's results name it. */
interface Field {
  name: string;
  dataTypeID: number;
}

type Parser = (text: string, typeId: number) => unknown;
/** PGlite's backend messages, as far as the results read them. */
type Message = Parameters<typeof pgParse.parseResults>[0][number];
type DataRow = InstanceType<typeof protocol.messages.DataRowMessage>;
type CommandComplete = InstanceType<typeof protocol.messages.CommandCompleteMessage>;
type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;

/** Commands whose completion tag counts rows PGlite adds up as `affectedRows`. */
const AFFECTING = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"]);

/** PGlite's transaction lock, which `query` takes before its query lock: not in its public types. */
interface PGliteLocks {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

const { serialize } = protocol;

class StatementCache {
  private readonly statements = new Map<string, Prepared>();
  /** Evicted statements, closed with the next message sent (a Close costs nothing on its own call). */
  private toClose: string[] = [];
  private counter = 0;

  constructor(
    private readonly client: PGlite,
    private readonly capacity = STATEMENT_CAPACITY,
  ) {}

  /** Runs `text` as a named statement; the caller holds PGlite's query lock. */
  async run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<T>> {
    try {
      return await this.runOnce<T>(text, params, options);
    } catch (err) {
      const code = (err as { code?: string }).code ?? "";
      if (!STALE_STATEMENT.has(code) || !this.statements.has(text)) throw err;
      // Prepared before a table changed (or deallocated by someone): prepare it again. Inside a
      // transaction the error has already aborted it, so only a statement on its own is retried.
      this.forget(text);
      if (inTransaction) throw err;
      return this.runOnce<T>(text, params, options);
    }
  }

  private async runOnce<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const prepared = this.statements.get(text) ?? (await this.prepare(text, params, options));
    // Most recently used last: the first key is the one to evict.
    this.statements.delete(text);
    this.statements.set(text, prepared);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = prepared.paramTypes[i];
      const serializer = options?.serializers?.[type] ?? this.client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await this.send(
      [
        serialize.bind({ statement: prepared.name, values: values as (string | null)[] }),
        serialize.execute({}),
        serialize.sync(),
      ],
      text,
      params,
      options,
    );
    return this.results<T>(prepared.fields, messages, options);
  }

  /**
   * The answer PGlite's `query` gives for one statement's messages (rows, fields, command,
   * affectedRows, rowCount), built here because PGlite's parser copies every parser the client
   * has into a new object on each call when the caller passes its own (drizzle always does),
   * which was most of a short query's cost in JavaScript. The columns come from the description
   * kept with the statement, each with its parser chosen once per call; `fields` is the statement's
   * own list, shared by its answers (drizzle only reads it).
   */
  private results<T>(fields: Field[], messages: Message[], options: QueryOptions | undefined): Results<T> {
    const parsers: (Parser | undefined)[] = fields.map(
      ({ dataTypeID }) => (options?.parsers?.[dataTypeID] ?? this.client.parsers[dataTypeID]) as Parser | undefined,
    );
    const parse = (value: string | null, i: number): unknown => {
      if (value === null) return null;
      const parser = parsers[i];
      return parser ? parser(value, fields[i].dataTypeID) : value;
    };
    const asArrays = options?.rowMode === "array";
    const rows: unknown[] = [];
    for (const message of messages) {
      if (message.name === "dataRow") {
        const values = (message as DataRow).fields;
        if (asArrays) rows.push(values.map(parse));
        else {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < values.length; i++) row[fields[i].name] = parse(values[i], i);
          rows.push(row);
        }
      } else if (message.name === "commandComplete") {
        const words = (message as CommandComplete).text.split(" ");
        const command = words[0];
        const count = parseInt(words[words.length - 1], 10);
        const result = {
          rows,
          fields,
          command,
          affectedRows: AFFECTING.has(command) ? count : 0,
          ...(Number.isNaN(count) ? {} : { rowCount: count }),
        };
        return result as unknown as Results<T>;
      }
    }
    return { affectedRows: 0, rows: [], fields: [] } as Results<T>;
  }

  private async prepare(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Prepared> {
    const name = `studio_${++this.counter}`;
    const { messages } = await this.send(
      [serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()],
      text,
      params,
      options,
    );
    const prepared: Prepared = {
      name,
      paramTypes: pgParse.parseDescribeStatementResults(messages),
      fields: describedFields(messages),
    };
    this.statements.set(text, prepared);
    if (this.statements.size > this.capacity) this.forget(this.statements.keys().next().value!);
    return prepared;
  }

  private forget(text: string): void {
    const prepared = this.statements.get(text);
    if (!prepared) return;
    this.statements.delete(text);
    this.toClose.push(prepared.name);
  }

  /** One call into PGlite: the pending closes, then `parts`. Errors are PGlite's, as `query` throws them. */
  private async send(parts: Uint8Array[], text: string, params: unknown[], options: QueryOptions | undefined) {
    const closes = this.toClose.map((name) => serialize.close({ type: "S", name }));
    this.toClose = [];
    try {
      return await this.client.execProtocol(Buffer.concat([...closes, ...parts]), {
        syncToFs: false,
        onNotice: options?.onNotice,
      });
    } catch (err) {
      Object.assign(err as object, { query: text, params, queryOptions: options });
      throw err;
    }
  }
}

function describedFields(messages: Message[]): Field[] {
  const description = messages.find((m) => m.name === "rowDescription") as RowDescription | undefined;
  return description ? description.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })) : [];
}

/** Whether this cache can run the query (otherwise PGlite's own `query` does). */
function cacheable(options: QueryOptions | undefined): boolean {
  return !options?.paramTypes && !options?.blob;
}

/**
 * Makes `client.query` (and each transaction's `query`) run through a statement cache: what
 * drizzle calls. `exec` (the simple protocol, several statements in one text) is left as it is.
 */
export function prepareStatements(client: PGlite, capacity = STATEMENT_CAPACITY): void {
  const cache = new StatementCache(client, capacity);
  const locks = client as unknown as PGliteLocks;
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);

  client.query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (!cacheable(options)) return query<T>(text, params, options);
    await client.waitReady;
    // As PGlite's `query`: wait for an open transaction to end, then take the query lock.
    return locks._runExclusiveTransaction(async () => {
      const result = await client.runExclusive(() => cache.run<T>(text, params, options, false));
      await client.syncToFs();
      return result;
    });
  };

  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = async <R>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<R>> => {
        if (!cacheable(options) || tx.closed) return txQuery<R>(text, params, options);
        return client.runExclusive(() => cache.run<R>(text, params, options, true));
      };
      return callback(tx);
    });
}
