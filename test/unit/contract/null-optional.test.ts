/**
 * Null is accepted wherever a field is optional (a `null_optional`
 * warning at most), for every kind; a required field set to null stays an error.
 * Walks every valid sample of fixtures/payloads: a field whose removal keeps the sample
 * valid is optional, so null must pass there too; any other field must refuse null.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readExpectation } from '../../../src/contract/expectations.js';
import { listKinds, validate, validateAuto } from '../../../src/contract/index.js';

const root = path.resolve(import.meta.dirname, '../../../fixtures/payloads');

function listValid(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listValid(full);
    return entry.name.endsWith('.valid.json') ? [full] : [];
  });
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every object key of the value, as a path of segments (array items included). */
function keyPaths(value: unknown, base: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keyPaths(item, [...base, i]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    [...base, key],
    ...keyPaths(child, [...base, key]),
  ]);
}

/** A copy with the field at `at` set to `replace` (or removed when `replace` is undefined). */
function edit(value: unknown, at: (string | number)[], replace: unknown): unknown {
  const copy = structuredClone(value) as Json;
  let parent: Json = copy;
  for (const segment of at.slice(0, -1)) parent = parent[segment as string] as Json;
  const last = at[at.length - 1] as string;
  if (replace === undefined) delete parent[last];
  else parent[last] = replace;
  return copy;
}

const samples = listValid(root);

describe('null for an optional field', () => {
  it('checks samples of every interface', () => {
    expect(samples.length).toBeGreaterThan(50);
  });

  it.each(samples.map((file) => [path.relative(root, file), file]))('%s', async (_name, file) => {
    const expectation = await readExpectation(file);
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const check = (v: unknown) =>
      expectation?.kind ? validate(expectation.kind, v) : validateAuto(v);
    const kind = check(value).kind;
    for (const at of keyPaths(value)) {
      // Only object keys can be optional; the discriminators name the kind.
      if (typeof at[at.length - 1] !== 'string') continue;
      const removed = validate(kind, edit(value, at, undefined));
      const nulled = validate(kind, edit(value, at, null));
      const where = at.join('.');
      if (removed.ok) {
        expect(nulled.ok, `${where} is optional, so null must pass`).toBe(true);
        const extra = nulled.warnings.filter((w) => w.code === 'null_optional');
        const silent = validate(kind, value).warnings.length === nulled.warnings.length;
        expect(extra.length === 1 || silent, `${where}: at most one null warning`).toBe(true);
      } else {
        expect(nulled.ok, `${where} is required, so null must fail`).toBe(false);
      }
    }
  });

  it('covers every kind the samples hold', async () => {
    const kinds = new Set<string>();
    for (const file of samples) {
      const expectation = await readExpectation(file);
      const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      kinds.add(expectation?.kind ? expectation.kind : validateAuto(value).kind);
    }
    expect(listKinds().filter((k) => !kinds.has(k.name))).toEqual([]);
  });

  it('names the field and the rule in the warning', () => {
    const result = validate('hook.chat_finished', {
      ...JSON.parse(readFileSync(path.join(root, 'hooks/chat-finished.valid.json'), 'utf8')),
      analytics: null,
    });
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => `${w.path}: ${w.rule} (spec ${w.spec})`))
      .toMatchInlineSnapshot(`
        [
          "analytics: null for an optional field (read as absent) (spec 6.2)",
        ]
      `);
  });

  it('keeps a required field required: null sender.id is an error', () => {
    const result = validate('channel.customer.text', {
      sender: { id: null },
      message: { type: 'text', text: 'hi' },
    });
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => `${e.path}: ${e.rule}`)).toMatchInlineSnapshot(`
      [
        "sender.id: must be a non-empty string (an empty id means the message is not sent)",
      ]
    `);
  });
});
