// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { checkLink, neutraliseTags } from '../../../src/widget/index.js';
import { install, sentEvents } from './setup.js';

describe('setCustomData (spec 4.5)', () => {
  it('accepts an array of {content, title, link, key}, in order, and sends it', async () => {
    const widget = install({ visitorId: 'v1' });
    const fields = [
      { title: 'Order', key: 'Number', content: '42', link: 'https://shop.test/orders/42' },
      { content: 'Gold customer' },
    ];
    expect(widget.api.setCustomData(fields)).toEqual({ result: 'ok' });
    expect(widget.session.customData).toEqual(fields);
    await widget.flush();
    expect(sentEvents(widget)).toEqual([{ type: 'custom_data', visitorId: 'v1', fields }]);
  });

  it('may be called repeatedly; the last call wins', () => {
    const widget = install();
    widget.api.setCustomData([{ content: 'a' }]);
    widget.api.setCustomData([]);
    expect(widget.session.customData).toEqual([]);
  });

  it.each([
    ['an object', { content: 'x' }],
    ['a string', 'x'],
    ['undefined', undefined],
  ])('fails with "custom data must be an array" for %s', (_label, value) => {
    const widget = install();
    expect(widget.api.setCustomData(value)).toEqual({
      result: 'fail',
      reason: 'custom data must be an array',
    });
    expect(widget.calls[0]!.result).toEqual({
      result: 'fail',
      reason: 'custom data must be an array',
    });
  });

  it('fails when an item is not an object or a field is not a string', () => {
    const widget = install();
    expect(widget.api.setCustomData(['x'])).toEqual({
      result: 'fail',
      reason: 'custom data item 0 must be an object',
    });
    expect(widget.api.setCustomData([{ content: 'ok' }, { title: 7 }])).toEqual({
      result: 'fail',
      reason: 'custom data item 1: title must be a string',
    });
    expect(widget.session.customData).toEqual([]);
  });

  it('neutralises tags in content only', () => {
    const widget = install();
    widget.api.setCustomData([
      { title: '<i>T</i>', content: '<script>alert(1)</script> & <b>x</b>' },
    ]);
    expect(widget.session.customData).toEqual([
      {
        title: '<i>T</i>',
        content: '&lt;script&gt;alert(1)&lt;/script&gt; & &lt;b&gt;x&lt;/b&gt;',
      },
    ]);
    expect(neutraliseTags('<a>')).toBe('&lt;a&gt;');
  });

  it('notes and ignores unknown fields', () => {
    const widget = install();
    widget.api.setCustomData([{ content: 'x', colour: 'red' }]);
    expect(widget.session.customData).toEqual([{ content: 'x' }]);
    expect(widget.issues.map((i) => i.code)).toEqual(['unknown_field']);
  });

  it('with safeUrl off keeps links to other domains, drops non-http(s) ones', () => {
    const widget = install();
    widget.api.setCustomData([
      { content: 'a', link: 'https://crm.example/card/1' },
      { content: 'b', link: 'javascript:alert(1)' },
    ]);
    expect(widget.session.customData).toEqual([
      { content: 'a', link: 'https://crm.example/card/1' },
      { content: 'b' },
    ]);
    expect(widget.issues.map((i) => i.code)).toEqual(['unsafe_link_scheme']);
  });

  it('with safeUrl on drops links to other domains; the result is still ok', () => {
    const widget = install({ safeUrl: true, pageOrigin: 'https://shop.test' });
    const result = widget.api.setCustomData([
      { content: 'same', link: 'https://shop.test/orders/1' },
      { content: 'relative', link: '/orders/2' },
      { content: 'other', link: 'https://crm.example/card/1' },
      { content: 'sub', link: 'https://www.shop.test/x' },
    ]);
    expect(result).toEqual({ result: 'ok' });
    expect(widget.session.customData).toEqual([
      { content: 'same', link: 'https://shop.test/orders/1' },
      { content: 'relative', link: 'https://shop.test/orders/2' },
      { content: 'other' },
      { content: 'sub' },
    ]);
    expect(widget.issues.map((i) => i.message)).toEqual([
      'custom data item 1: relative link "/orders/2" kept as https://shop.test/orders/2, against the page\'s origin',
      'custom data item 2: link "https://crm.example/card/1" dropped (link_blocked_by_safe_url)',
      'custom data item 3: link "https://www.shop.test/x" dropped (link_blocked_by_safe_url)',
    ]);
  });

  it('checkLink: the rules of the safe-URL setting', () => {
    const on = { safeUrl: true, pageOrigin: 'https://shop.test' };
    expect(checkLink('http://SHOP.test:8080/a', on)).toBeUndefined(); // host only
    expect(checkLink('https://evil.test', on)).toBe('link_blocked_by_safe_url');
    expect(checkLink('//evil.test/a', on)).toBe('link_blocked_by_safe_url');
    expect(checkLink('data:text/html,x', on)).toBe('unsafe_link_scheme');
    expect(checkLink('http://[bad', on)).toBe('invalid_link');
    const noOrigin = { safeUrl: true, pageOrigin: 'null' };
    expect(checkLink('https://shop.test/a', noOrigin)).toBe('link_blocked_by_safe_url');
    expect(checkLink('/a', { safeUrl: false, pageOrigin: '' })).toBe('invalid_link');
  });
});
