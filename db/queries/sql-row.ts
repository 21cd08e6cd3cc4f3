/**
 * Column types of a raw `db.execute(sql…)` row where PGlite and node-postgres differ, or where
 * drizzle leaves the text: a row type names the column's SQL type with these, and its mapper
 * converts with the functions below, so both drivers give the same values.
 */

/** timestamptz: drizzle turns both drivers' date parsing off for raw queries, so it is the server's text. */
export type SqlTimestamp = string;
/** int8, e.g. an uncast `count(*)`: a number on PGlite, a string on node-postgres. */
export type SqlBigint = number | string;
/** numeric: its text on both drivers (exact decimals). */
export type SqlNumeric = string;

export function toDate(v: SqlTimestamp | Date): Date {
  return v instanceof Date ? v : new Date(v);
}

export function toDateOrNull(v: SqlTimestamp | Date | null): Date | null {
  return v === null ? null : toDate(v);
}

export function toNumber(v: SqlBigint | SqlNumeric | number): number {
  return Number(v);
}

export function toNumberOrNull(v: SqlBigint | SqlNumeric | number | null): number | null {
  return v === null ? null : Number(v);
}
