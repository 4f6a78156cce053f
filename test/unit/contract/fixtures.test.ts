/**
 * Walks fixtures/payloads: each sample's verdict and issue paths must match what its file
 * name and sidecar say (the expectation lives with the sample, not here), and the JSON
 * Schema generated from zod must agree with zod on errors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
// CommonJS: its plugin is the default export's `default` under NodeNext types
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { compareExpectation, readExpectation } from '../../../src/contract/expectations.js';
import { isPayloadFile } from '../../../src/contract/inputs.js';
import { listKinds, toJsonSchema, validate, validateAuto } from '../../../src/contract/index.js';

const root = path.resolve(import.meta.dirname, '../../../fixtures/payloads');

function listSamples(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSamples(full);
    return isPayloadFile(entry.name) ? [full] : [];
  });
}

const samples = listSamples(root);
const relative = (file: string): string => path.relative(root, file);

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajvFormats.default(ajv); // checks `uri` and the other formats instead of warning
const validators = new Map(listKinds().map((k) => [k.name, ajv.compile(toJsonSchema(k.name))]));

describe('fixtures/payloads', () => {
  it('holds at least 100 samples in the four interface folders and real/', () => {
    expect(samples.length).toBeGreaterThanOrEqual(100);
    const folders = new Set(samples.map((s) => relative(s).split(path.sep)[0]));
    expect([...folders].sort()).toEqual(['bot', 'channel', 'hooks', 'real', 'widget']);
  });

  it('covers every kind with a valid sample', async () => {
    const covered = new Set<string>();
    for (const file of samples) {
      const expectation = await readExpectation(file);
      const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      const result = expectation?.kind ? validate(expectation.kind, value) : validateAuto(value);
      if (result.ok) covered.add(result.kind);
    }
    const missing = listKinds()
      .map((k) => k.name)
      .filter((k) => !covered.has(k));
    expect(missing).toEqual([]);
  });

  it.each(samples.map((file) => [relative(file), file]))('%s', async (_name, file) => {
    const expectation = await readExpectation(file);
    expect(expectation?.verdict, 'the file name says .valid, .warning or .invalid').toBeDefined();
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const result = expectation?.kind ? validate(expectation.kind, value) : validateAuto(value);
    expect(compareExpectation(expectation!, result)).toEqual([]);

    // JSON Schema agrees with zod on errors (warnings are zod-only; see json-schema.ts).
    const check = validators.get(result.kind);
    if (check) expect(check(value), JSON.stringify(check.errors)).toBe(result.ok);
  });
});
