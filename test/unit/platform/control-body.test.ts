/**
 * A control-API body that does not fit (src/platform/control-kit.ts): the error names the
 * field left out as required, and lists the fields the request takes; a key it does not
 * take is refused with the closest known one (stripped, `{"txt": "hi"}` went unseen).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { faultPlanBodySchema } from '../../../src/faults/plan-file.js';
import { parseControlBody } from '../../../src/platform/control-kit.js';
import type { PlatformRequest } from '../../../src/platform/types.js';

const offline = z.object({ name: z.string().optional(), message: z.string().min(1) });
const request = (json: unknown): PlatformRequest => ({
  method: 'POST',
  path: '/_sim/visitor/offline-message',
  query: new URLSearchParams(),
  headers: {},
  body: { ok: true, raw: JSON.stringify(json), json, transfer: 'content-length', bytes: 2 },
});

describe('parseControlBody', () => {
  it('says a field left out is required, and which fields the body takes', () => {
    expect(() => parseControlBody(offline, request({}))).toThrow(
      'message: required (a string); this request takes a JSON object with name, message',
    );
  });

  it("says a value of the wrong type in svc-cli's words, with what was sent", () => {
    expect(() => parseControlBody(offline, request({ message: 5 }))).toThrow(
      /^message: must be a string, not a number; this request takes/,
    );
    expect(parseControlBody(offline, request({ message: 'Call me' }))).toEqual({
      message: 'Call me',
    });
  });

  it('refuses a key the body does not take, with the closest known key', () => {
    expect(() => parseControlBody(offline, request({ mesage: 'Call me' }))).toThrow(
      'mesage: unknown key (did you mean "message"?); this request takes a JSON object with name, message',
    );
    // no near name: the known keys, once
    expect(() => parseControlBody(offline, request({ message: 'x', colour: 'red' }))).toThrow(
      /^colour: unknown key \(known keys: "name", "message"\)$/,
    );
    // a loose schema takes any key
    const loose = z.looseObject({ message: z.string() });
    expect(parseControlBody(loose, request({ message: 'x', extra: 1 }))).toEqual({
      message: 'x',
      extra: 1,
    });
  });

  it('names the value an enum takes that a typo was meant for', () => {
    const call = z.object({ outcome: z.enum(['end', 'error']).optional() });
    expect(() => parseControlBody(call, request({ outcome: 'eror' }))).toThrow(
      /^outcome: must be one of "end", "error" \(did you mean "error"\?\); this request takes/,
    );
    // nothing near: the values alone
    expect(() => parseControlBody(call, request({ outcome: 'finished' }))).toThrow(
      /^outcome: must be one of "end", "error"; this request takes/,
    );
  });

  it('says a number out of range as the bound it breaks (PUT /_sim/faults {"rate":2})', () => {
    expect(() =>
      parseControlBody(faultPlanBodySchema, request({ fault: 'status:503', rate: 2 })),
    ).toThrow(/^rate: must be at most 1; this request takes/);
  });

  it('names the closest key of a body that is transformed once parsed (PUT /_sim/faults)', () => {
    expect(() => parseControlBody(faultPlanBodySchema, request({ falt: 'status:503' }))).toThrow(
      /^falt: unknown key \(did you mean "fault"\?\); this request takes a JSON object with \$schema, version, /,
    );
    expect(parseControlBody(faultPlanBodySchema, request({ fault: 'status:503' }))).toEqual({
      fault: { kind: 'status', status: 503 },
    });
  });
});
