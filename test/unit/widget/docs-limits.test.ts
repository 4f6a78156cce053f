// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { readDataOptions } from '../../../src/widget/browser-install.js';
import { install, sentEvents } from './setup.js';

describe('the page-script double under the docs profile', () => {
  it('has no setClientAttributes under the spec (spec 4.5 does not list it)', () => {
    expect(install().api.setClientAttributes).toBeUndefined();
  });

  it('refuses the 11th setClientAttributes in an hour, with a warning naming the limit', () => {
    let now = 0;
    const warnings: string[] = [];
    const widget = install({
      profile: 'docs',
      now: () => now,
      console: { warn: (line: string) => warnings.push(line), error: () => undefined },
    });
    const set = widget.api.setClientAttributes!;
    for (let i = 1; i <= 10; i++) {
      now = i * 60_000;
      expect(set({ plan: `p${i}` })).toEqual({ result: 'ok' });
    }
    now = 11 * 60_000;
    expect(set({ plan: 'p11' })).toEqual({
      result: 'fail',
      reason: 'limit of 10 calls per hour reached',
    });
    expect(warnings).toEqual([
      'svc_api double: setClientAttributes: refused, call 11 within an hour; the public JS API allows 10 calls per visitor and hour',
    ]);
    expect(widget.session.attributes).toEqual({ plan: 'p10' });
    // an hour after the first call, one more fits
    now = 60_000 + 3_600_000;
    expect(set({ plan: 'later' })).toEqual({ result: 'ok' });
    expect(widget.calls.filter((c) => c.method === 'setClientAttributes')).toHaveLength(12);
  });

  it('sends each accepted setClientAttributes to the platform (hook client_attribute_updated)', () => {
    const widget = install({ profile: 'docs' });
    widget.api.setClientAttributes!({ plan: 'pro', seats: 3 });
    widget.api.setClientAttributes!('not an object');
    expect(sentEvents(widget).filter((e) => e.type === 'client_attributes')).toEqual([
      {
        type: 'client_attributes',
        visitorId: widget.visitorId,
        attributes: { plan: 'pro', seats: 3 },
      },
    ]);
  });

  it('refuses setCustomData with more than 10 fields under docs, with a warning naming the limit', () => {
    const warnings: string[] = [];
    const widget = install({
      profile: 'docs',
      console: { warn: (line: string) => warnings.push(line), error: () => undefined },
    });
    const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `f${i}` }));
    expect(widget.api.setCustomData(fields(10))).toEqual({ result: 'ok' });
    expect(widget.api.setCustomData(fields(11))).toEqual({
      result: 'fail',
      reason: 'at most 10 fields',
    });
    expect(warnings).toEqual([
      'svc_api double: setCustomData: refused, 11 fields; the public JS API allows 10',
    ]);
    expect(widget.session.customData).toHaveLength(10);
    expect(install().api.setCustomData(fields(11))).toEqual({ result: 'ok' });
  });

  it('getContactInfo answers the name as client_name under docs, as name under the spec', () => {
    const docs = install({ profile: 'docs' });
    docs.api.setContactInfo({ name: 'Ann', email: 'ann@shop.test' });
    expect(docs.api.getContactInfo()).toEqual({ client_name: 'Ann', email: 'ann@shop.test' });
    const spec = install();
    spec.api.setContactInfo({ name: 'Ann' });
    expect(spec.api.getContactInfo()).toEqual({ name: 'Ann' });
  });

  it('data-profile="docs" on the script tag turns it on; another value is a problem', () => {
    expect(readDataOptions({ profile: 'docs' })).toEqual({ profile: 'docs' });
    const problems: string[] = [];
    expect(readDataOptions({ profile: 'real' }, problems)).toEqual({});
    expect(problems).toEqual([
      'data-profile="real" is none of spec, docs: the default (spec) is kept',
    ]);
  });
});
