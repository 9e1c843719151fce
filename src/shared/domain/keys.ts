/**
 * A type guard for the keys of a table (`isMedium = keyGuard(MEDIUM_PRESETS)`): a string that is one
 * of the table's own keys, so inherited names such as `toString` are not taken.
 */
export const keyGuard =
  <T extends object>(table: T) =>
  (v: unknown): v is Extract<keyof T, string> =>
    typeof v === 'string' && Object.hasOwn(table, v);
