const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path segment or token part can name a uuid row at all (PostgreSQL refuses anything else with an error, a 500). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
