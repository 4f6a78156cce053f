/**
 * The field table of a payload kind, read from its JSON Schema (the one `svc-cli schema`
 * prints, with drift places marked: `toDriftMarkedSchema`), so the reference cannot say
 * something the validator does not check.
 */
import { toDriftMarkedSchema } from '../contract/json-schema.js';
import { getKind } from '../contract/validate.js';

type Json = Record<string, unknown>;

/** One field of a kind, as docs/CONTRACT.md and `svc-cli explain` show it. */
export interface FieldRow {
  /** dotted path; `[]` is any array item: `message.buttons[].id` */
  path: string;
  /** the spec's JSON types: `string`, `integer`, `object`, ... */
  types: string[];
  required: boolean;
  /** for a field of one message variant: `type is "TEXT"` */
  when?: string;
  /** lengths, ranges, counts, formats */
  limits: string[];
  /** a closed set or a constant */
  values: string[];
  /** an optional field may be null (read as absent) */
  nullable: boolean;
  /** the value may also arrive as the other JSON type (a number for a string id, ...) */
  drift: boolean;
  description?: string;
}

const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJson) : []);
const SAFE = Number.MAX_SAFE_INTEGER;

interface Branches {
  real: Json[];
  nullable: boolean;
  drift: boolean;
}

/** Splits a schema into its real branches, noting null and drift (`{ not: {} }`) branches. */
function branchesOf(schema: Json): Branches {
  const out: Branches = { real: [], nullable: false, drift: false };
  const visit = (s: Json): void => {
    const union = [...list(s.anyOf), ...list(s.oneOf)];
    if (union.length > 0 && s.properties === undefined) {
      for (const b of union) visit(b);
      return;
    }
    if (isJson(s.not) && Object.keys(s.not).length === 0) {
      out.drift = true;
      return;
    }
    if (Array.isArray(s.type)) {
      for (const t of s.type as string[]) {
        if (t === 'null') out.nullable = true;
        else out.real.push({ ...s, type: t });
      }
      return;
    }
    if (s.type === 'null') {
      out.nullable = true;
      return;
    }
    out.real.push(s);
  };
  visit(schema);
  return out;
}

function limitsOf(s: Json): string[] {
  const limits: string[] = [];
  const num = (key: string): number | undefined =>
    typeof s[key] === 'number' ? s[key] : undefined;
  const minLength = num('minLength');
  const maxLength = num('maxLength');
  if (minLength === 1) limits.push('not empty');
  else if (minLength !== undefined && minLength > 1)
    limits.push(`at least ${minLength} characters`);
  if (maxLength !== undefined) limits.push(`at most ${maxLength} characters`);
  const minimum = num('minimum');
  const maximum = num('maximum');
  if (minimum !== undefined && minimum > -SAFE) limits.push(`>= ${minimum}`);
  if (num('exclusiveMinimum') !== undefined) limits.push(`> ${num('exclusiveMinimum')}`);
  if (maximum !== undefined && maximum < SAFE) limits.push(`<= ${maximum}`);
  const minItems = num('minItems');
  if (minItems !== undefined && minItems > 0)
    limits.push(minItems === 1 ? 'at least 1 item' : `at least ${minItems} items`);
  if (num('maxItems') !== undefined) limits.push(`at most ${num('maxItems')} items`);
  if (typeof s.pattern === 'string') limits.push(describePattern(s.pattern));
  if (typeof s.format === 'string') limits.push(`format ${s.format}`);
  return limits;
}

function describePattern(pattern: string): string {
  if (pattern.includes('https?')) return 'http(s) URL';
  if (pattern === '^-?\\d+$') return 'as a string, an integer';
  if (pattern.startsWith('^\\d+')) return 'as a string, a number in digits';
  return `matches \`${pattern}\``;
}

function valuesOf(s: Json): string[] {
  if (s.const !== undefined) return [JSON.stringify(s.const)];
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v));
  return [];
}

/** The discriminating constant of an object variant (`type: "TEXT"`), when it has one. */
function variantOf(s: Json): string | undefined {
  if (!isJson(s.properties)) return undefined;
  for (const [name, child] of Object.entries(s.properties)) {
    if (isJson(child) && child.const !== undefined)
      return `${name} is ${JSON.stringify(child.const)}`;
  }
  // No constant tells the forms apart: name the form by its first required field.
  const first = Array.isArray(s.required) ? (s.required as string[])[0] : undefined;
  return first === undefined ? undefined : `the ${first} form`;
}

function walk(
  schema: Json,
  path: string,
  required: boolean,
  when: string | undefined,
  rows: FieldRow[],
): void {
  const { real, nullable, drift } = branchesOf(schema);
  if (path !== '') {
    const types = [...new Set(real.map((b) => typeOfBranch(b)))];
    rows.push({
      path,
      types,
      required,
      ...(when === undefined ? {} : { when }),
      limits: [...new Set(real.flatMap(limitsOf))],
      values: [...new Set(real.flatMap(valuesOf))],
      nullable,
      drift,
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    });
  }
  const objects = real.filter((b) => isJson(b.properties));
  for (const object of objects) {
    const variant = objects.length > 1 ? variantOf(object) : undefined;
    const req = new Set(Array.isArray(object.required) ? (object.required as string[]) : []);
    for (const [name, child] of Object.entries(object.properties as Json)) {
      if (!isJson(child)) continue;
      const childPath = path === '' ? name : `${path}.${name}`;
      walk(child, childPath, req.has(name), variant ?? when, rows);
    }
  }
  for (const array of real.filter((b) => isJson(b.items)))
    walkItems(array.items as Json, `${path}[]`, when, rows);
}

/** Array items: their own fields, not a row for the item itself (unless a scalar). */
function walkItems(items: Json, path: string, when: string | undefined, rows: FieldRow[]): void {
  const { real } = branchesOf(items);
  if (!real.some((b) => isJson(b.properties) || isJson(b.items))) return;
  const mark = rows.length;
  walk(items, path, true, when, rows);
  rows.splice(mark, 1); // the item's own row says nothing its array's row does not
}

function typeOfBranch(b: Json): string {
  if (typeof b.type === 'string') return b.type;
  if (b.const !== undefined) return typeof b.const;
  return 'any';
}

/** Rows of one variant's fields come once per variant; identical rows are merged. */
function merge(rows: FieldRow[]): FieldRow[] {
  const byKey = new Map<string, FieldRow>();
  for (const row of rows) {
    const key = `${row.path}\u0000${row.when ?? ''}`;
    if (!byKey.has(key)) byKey.set(key, row);
  }
  // A field that every variant has alike is shown once, without `when`.
  const out: FieldRow[] = [];
  const groups = new Map<string, FieldRow[]>();
  for (const row of byKey.values()) {
    const group = groups.get(row.path) ?? [];
    group.push(row);
    groups.set(row.path, group);
  }
  for (const group of groups.values()) {
    // The discriminator of the variants (`message.type`): one row with every value.
    const key = (r: FieldRow): string => JSON.stringify({ ...r, when: 0, values: 0 });
    if (group.length > 1 && group.every((r) => key(r) === key(group[0]!))) {
      const { when: _when, ...row } = group[0]!;
      out.push({ ...row, values: [...new Set(group.flatMap((r) => r.values))] });
      continue;
    }
    const same = group.every(
      (r) => JSON.stringify({ ...r, when: 0 }) === JSON.stringify({ ...group[0], when: 0 }),
    );
    if (group.length > 1 && same) {
      const { when: _when, ...row } = group[0]!;
      out.push(row);
    } else out.push(...group);
  }
  return out;
}

/**
 * Every field of a kind, parents before children, in schema order.
 * @example fieldRows('bot.event.BOT_MESSAGE').map((r) => r.path)
 */
export function fieldRows(kind: string, under?: string): FieldRow[] {
  getKind(kind);
  const rows: FieldRow[] = [];
  const schema = toDriftMarkedSchema(kind);
  walk(schema, '', true, undefined, rows);
  // A kind whose body is no object (the status body 0 or 1) gets one row for the body.
  if (rows.length === 0) {
    const { real } = branchesOf(schema);
    rows.push({
      path: '(body)',
      types: [...new Set(real.map(typeOfBranch))],
      required: true,
      limits: [...new Set(real.flatMap(limitsOf))],
      values: [...new Set(real.flatMap(valuesOf))],
      nullable: false,
      drift: false,
    });
  }
  const merged = merge(rows);
  if (under === undefined) return merged;
  return merged.filter(
    (r) => r.path === under || r.path.startsWith(`${under}.`) || r.path.startsWith(`${under}[]`),
  );
}
