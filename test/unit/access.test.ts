/** The Host allow-list and the access flags as pure functions (docs/SECURITY.md). */
import { describe, expect, it } from 'vitest';
import { createHostCheck, hostNameOf, hostRefusal } from '../../src/http/host-check.js';
import { isLoopbackOrigin } from '../../src/platform/control-access.js';
import { controlAccessOf } from '../../src/cli/serving-flags.js';
import { consoleUrlOf } from '../../src/cli/control-banner.js';

describe('hostNameOf', () => {
  it.each([
    ['localhost:8800', 'localhost'],
    ['LocalHost.', 'localhost'],
    ['[::1]:9000', '[::1]'],
    ['127.0.0.1', '127.0.0.1'],
    ['svc.test.:80', 'svc.test'],
  ])('%s -> %s', (host, name) => expect(hostNameOf(host)).toBe(name));
});

describe('createHostCheck', () => {
  const check = createHostCheck('127.0.0.1', ['svc.test', '.dev.test']);
  it.each([
    ['localhost:1', true],
    ['app.localhost:3000', true],
    ['127.0.0.1:9', true],
    ['192.168.1.20:8800', true],
    ['[::1]:8800', true],
    ['[fe80::1]', true],
    ['svc.test', true],
    ['dev.test', true],
    ['a.b.dev.test', true],
    [undefined, true],
    ['attacker.example', false],
    ['localhost.attacker.example', false],
    ['svc.test.attacker.example', false],
    ['1.2.3.4.nip.io', false],
    ['xdev.test', false],
  ])('%s -> %s', (host, ok) => expect(check(host)).toBe(ok));

  it('admits the --host it binds, an IPv6 one bracketed', () => {
    expect(createHostCheck('svc-box')('svc-box:8800')).toBe(true);
    expect(createHostCheck('::1')('[::1]:1')).toBe(true);
    expect(createHostCheck('0.0.0.0')('svc-box')).toBe(false);
  });

  it('names the flag in its refusal', () => {
    expect(JSON.parse(hostRefusal('Evil.example:80'))).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "host_not_allowed",
          "message": "svc-cli does not serve requests for Host "evil.example": it serves localhost, IP addresses, its --host and the names given with --allowed-host. If you reach it by this name on purpose, start it with --allowed-host evil.example (docs/SECURITY.md).",
        },
      }
    `);
  });
});

describe('isLoopbackOrigin', () => {
  it.each([
    ['http://localhost:3000', true],
    ['https://127.0.0.1', true],
    ['http://[::1]:8080', true],
    ['http://localhost.evil.example', false],
    ['http://127.0.0.1.nip.io', false],
    ['null', false],
  ])('%s -> %s', (origin, ok) => expect(isLoopbackOrigin(origin)).toBe(ok));
});

describe('controlAccessOf', () => {
  it('generates a token for a non-loopback --host only', () => {
    const open = controlAccessOf({ host: '0.0.0.0' });
    expect(open.generated).toBe(true);
    expect(open.token).toMatch(/^[\w-]{32}$/);
    expect(open.access.token).toBe(open.token);
    expect(controlAccessOf({ host: '127.0.0.1' }).token).toBeUndefined();
    expect(controlAccessOf({ host: '0.0.0.0', controlToken: 'mine' })).toMatchObject({
      token: 'mine',
      generated: false,
    });
    expect(controlAccessOf({ host: '127.0.0.1', controlToken: 'mine' }).token).toBe('mine');
  });

  it('takes origins as browsers send them, and refuses anything else', () => {
    expect(
      controlAccessOf({ allowOrigin: ['http://LocalHost:5173/', 'https://app.test:443'] }).access
        .allowOrigins,
    ).toEqual(['http://localhost:5173', 'https://app.test']);
    // a page opened from a file sends Origin: null; its location.origin reads file://
    expect(controlAccessOf({ allowOrigin: ['null', 'file://'] }).access.allowOrigins).toEqual([
      'null',
      'null',
    ]);
    expect(() => controlAccessOf({ allowOrigin: ['localhost:5173/x'] })).toThrow(/--allow-origin/);
    expect(() => controlAccessOf({ allowOrigin: ['http://a.test/path'] })).toThrow(
      /Example: --allow-origin http:\/\/localhost:5173|an origin/,
    );
  });

  it('puts a generated token in the console URL fragment', () => {
    const control = controlAccessOf({ host: '0.0.0.0', controlToken: undefined });
    expect(consoleUrlOf('http://10.0.0.5:8800', control)).toBe(
      `http://10.0.0.5:8800/_sim/console/#token=${control.token}`,
    );
    expect(consoleUrlOf('http://127.0.0.1:1', controlAccessOf({}))).toBe(
      'http://127.0.0.1:1/_sim/console/',
    );
  });
});
