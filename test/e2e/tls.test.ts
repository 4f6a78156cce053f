import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateLoopbackCertificate } from '../../src/http/tls.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { runCli } from '../helpers/run-cli.js';

const servers: CliServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function serve(args: string[]): Promise<CliServer> {
  const server = await startCliServer(args);
  servers.push(server);
  return server;
}

const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('HTTPS both ways', () => {
  it('serves --tls with a generated certificate that --ca trusts; a wrong CA is one clear line, exit 3; --insecure warns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
    const certFile = join(dir, 'svc.pem');
    const journal = join(dir, 'target.ndjson');
    const target = await serve([
      '--json',
      'hook-target',
      '--port',
      '0',
      '--tls',
      '--tls-cert-out',
      certFile,
      '--record',
      journal,
    ]);
    expect(target.listening.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(target.stderr()).toMatch(/SHA-256 [0-9A-F:]{95}/);

    const trusted = await runCli([
      '--ca',
      certFile,
      'hook-fire',
      'chat_accepted',
      '--url',
      `${target.listening.url}/hooks`,
      '--wait',
      '5s',
    ]);
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    // --wait's probe is a TLS handshake alone: the receiver got the hook and no request of
    // the probe's (a HEAD / showed in a proxy as a request it does not forward)
    const methods = await vi.waitFor(() => {
      const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
      const seen = lines.map(
        (l) => (JSON.parse(l) as { request: { method: string } }).request.method,
      );
      expect(seen).toContain('POST');
      return seen;
    });
    expect(methods).toEqual(['POST']);

    const other = await generateLoopbackCertificate();
    const wrongCa = join(dir, 'other.pem');
    writeFileSync(wrongCa, other.cert);
    const refused = await runCli([
      '--ca',
      wrongCa,
      'hook-fire',
      'chat_accepted',
      '--url',
      `${target.listening.url}/hooks`,
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/self-signed.*--ca.*--insecure/);
    // the --ca given is named as not holding it, not asked for again
    expect(refused.stderr).toContain(`--ca ${wrongCa} does not hold it`);
    expect(refused.stderr).not.toContain('pass --ca <pem>');
    noStack(refused.stderr);

    const insecure = await runCli([
      '--insecure',
      'hook-fire',
      'chat_accepted',
      '--url',
      `${target.listening.url}/hooks`,
    ]);
    expect(insecure.code).toBe(0);
    expect(insecure.stderr).toMatch(/warning: --insecure/);
  });

  it('refuses a --cert without --key and a --ca that is no certificate (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
    const half = await runCli(['listen', '--port', '0', '--cert', join(dir, 'c.pem')]);
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/--cert is given without --key/);
    const notPem = join(dir, 'x.pem');
    writeFileSync(notPem, 'hello');
    const bad = await runCli([
      '--ca',
      notPem,
      'status',
      '--channel-url',
      'https://127.0.0.1:1/a/b',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/holds no PEM certificate/);
    noStack(bad.stderr);
  });

  it('the redelivery rules hold over HTTPS: listen --tls --fail-first 2 gets the 3rd attempt (spec 8)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
    const certFile = join(dir, 'listen.pem');
    const listen = await serve([
      '--json',
      'listen',
      '--port',
      '0',
      '--tls',
      '--tls-cert-out',
      certFile,
      '--fail-first',
      '2',
    ]);
    expect(listen.listening.url).toMatch(/^https:/);
    const platform = await serve([
      '--json',
      '--ca',
      certFile,
      // 1, the real schedule: each attempt waits the spec's 3 s, room for a fresh TLS handshake
      // on a 2-core machine running the full suite beside a CPU hog on both cores (there a 1.5 s
      // budget at 0.5 failed the third attempt once in a run, and 750 ms at 0.25 did too)
      '--time-scale',
      '1',
      'platform',
      '--port',
      '0',
      '--integrator-url',
      listen.listening.url,
      '--random-string',
      'rs0123456789abcdef012345',
      '--channel-id',
      'shop',
    ]);
    const base = platform.listening.url;
    const sent = await fetch(`${base}/rs0123456789abcdef012345/shop`, {
      method: 'POST',
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    expect(sent.status).toBe(200);
    const reply = await fetch(`${base}/_sim/agent/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerId: 'c-1', text: 'hello over TLS' }),
    });
    expect(await reply.json()).toMatchObject({ result: 'delivered', attempts: 3 });
  });
});
