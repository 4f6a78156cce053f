import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateInputs, type ValidateEvent } from '../../../src/contract/run-validate.js';
import { validateEventJson } from '../../../src/cli/render/validate.js';

/** Every event `validate` gives for these inputs. */
async function eventsOf(inputs: string[], checkExpectations = false): Promise<ValidateEvent[]> {
  const events: ValidateEvent[] = [];
  for await (const event of validateInputs({ inputs, checkExpectations })) events.push(event);
  return events;
}

describe('validate --json lines (written without a key-by-key walk)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-validate-json-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are JSON.stringify of each event, byte for byte, whatever the verdict', async () => {
    // a source name that needs escaping, every verdict, with and without a line number
    const stream = path.join(dir, 'odd "name" \u00e9\t.ndjson');
    writeFileSync(
      stream,
      [
        JSON.stringify({ sender: { id: 'c1' }, message: { type: 'text', text: 'hi' } }),
        JSON.stringify({ sender: { id: 1 }, message: { type: 'text', text: 'drift' } }),
        JSON.stringify({ sender: { id: 'c1' }, message: { type: 'text', text: 'x', extra: 1 } }),
        '{"result": "ok", "__proto__": {}}',
        'not json',
        JSON.stringify({ nothing: 'to detect' }),
      ].join('\n'),
    );
    const document = path.join(dir, 'one.json');
    writeFileSync(document, JSON.stringify({ result: 'ok' }));
    const events = await eventsOf([stream, document, path.join(dir, 'missing.json')]);
    expect(new Set(events.map((e) => (e.type === 'result' ? e.verdict : e.type)))).toEqual(
      new Set(['valid', 'warning', 'invalid', 'unreadable', 'summary']),
    );
    for (const event of events) expect(validateEventJson(event)).toBe(JSON.stringify(event));
  });

  it('are JSON.stringify too for samples checked against their names', async () => {
    const events = await eventsOf(['fixtures/payloads/channel'], true);
    expect(events.some((e) => e.type === 'result' && e.mismatches !== undefined)).toBe(true);
    for (const event of events) expect(validateEventJson(event)).toBe(JSON.stringify(event));
  });
});
