/**
 * Optional fields without `x === undefined ? {} : { x }` per field: with
 * `exactOptionalPropertyTypes` an optional property may be absent but never `undefined`, so
 * a group of maybe-undefined values is copied without the undefined ones.
 */

/** T with its possibly-undefined properties made optional and defined. */
export type Compact<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };

/** Drops undefined values. @example compact({ a: 1, b: undefined }) // { a: 1 } */
export function compact<T extends Record<string, unknown>>(value: T): Compact<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Compact<T>;
}
