import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

describe('svc-cli proxy', () => {
  it('says a path it does not proxy once, in --json even with --quiet, with the URL to use', async () => {
    const proxy = await serve([
      '--json',
      'proxy',
      'hooks',
      '--quiet',
      '--port',
      '0',
      '--receiver-url',
      'http://127.0.0.1:9/webhook/x',
    ]);
    const lines: Record<string, unknown>[] = [];
    proxy.child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${proxy.listening.url}/webhook/x`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
    }
    await proxy.stop();
    expect(lines.filter((l) => l.type === 'request-rejected')).toEqual([
      {
        type: 'request-rejected',
        at: expect.any(String),
        method: 'POST',
        path: '/webhook/x',
        status: 404,
        code: 'no_route',
        message: `not proxied: the proxy serves ${proxy.listening.url}/hooks/...`,
        serves: [{ leg: 'receiver', caller: 'platform', url: `${proxy.listening.url}/hooks` }],
      },
    ]);
  });

  it('proxies hooks over HTTPS to hook-target, prints one line per exchange and a summary; --fail-on-violation exits 1 on a bad reply', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    const certFile = join(dir, 'svc.pem');
    const badReply = join(dir, 'bad.json');
    writeFileSync(badReply, JSON.stringify({ custom_data: 'not an array' }));
    const target = await serve([
      '--json',
      'hook-target',
      '--port',
      '0',
      '--tls',
      '--tls-cert-out',
      certFile,
      '--reply',
      `chat_accepted=${badReply}`,
    ]);
    const record = join(dir, 'hooks.ndjson');
    const proxy = await serve([
      '--json',
      '--ca',
      certFile,
      'proxy',
      'hooks',
      '--port',
      '0',
      '--receiver-url',
      `${target.listening.url}/hooks`,
      '--record',
      record,
      '--fail-on-violation',
    ]);
    const lines: Record<string, unknown>[] = [];
    proxy.child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    expect(proxy.listening).toMatchObject({
      type: 'listening',
      iface: 'hooks',
      legs: [{ leg: 'receiver', url: `${proxy.listening.url}/hooks` }],
    });
    const ok = await runCli([
      'hook-fire',
      'chat_finished',
      '--url',
      `${proxy.listening.url}/hooks`,
    ]);
    expect(ok.code).toBe(0);
    const bad = await runCli([
      'hook-fire',
      'chat_accepted',
      '--url',
      `${proxy.listening.url}/hooks`,
    ]);
    expect(bad.code).toBe(1); // hook-fire sees the same bad reply through the proxy
    const code = await proxy.stop();
    expect(code).toBe(1);
    const summary = lines.find((l) => l.type === 'summary');
    expect(summary).toMatchObject({ exchanges: 2, violations: 1 });
    const exchanges = lines.filter((l) => l.type === 'exchange');
    expect(exchanges.map((e) => [e.kind, e.status])).toEqual([
      ['hook.chat_finished', 200],
      ['hook.chat_accepted', 200],
    ]);
  });

  it('--fail-on-violation exits 1 for a receiver that never answers, not for --fault (newcomer pass)', async () => {
    const proxyHooks = (receiverUrl: string, ...more: string[]) =>
      serve(['--json', 'proxy', 'hooks', '--port', '0', '--receiver-url', receiverUrl, ...more]);
    // a receiver that is down: the platform gives up on the hook (no redelivery, assumed)
    const down = await proxyHooks('http://127.0.0.1:1/hooks', '--fail-on-violation');
    const fired = await runCli([
      'hook-fire',
      'chat_finished',
      '--url',
      `${down.listening.url}/hooks`,
    ]);
    expect(fired.code).toBe(3); // the receiver behind the proxy is unreachable, as it is
    expect(fired.stderr).toContain('through svc-cli proxy');
    expect(await down.stop()).toBe(1);
    // the proxy's own fault on a healthy receiver: its doing, not the receiver's
    const target = await serve(['--json', 'hook-target', '--port', '0']);
    const faulty = await proxyHooks(
      `${target.listening.url}/hooks`,
      '--fault',
      'status:500',
      '--fail-on-violation',
    );
    await runCli(['hook-fire', 'chat_finished', '--url', `${faulty.listening.url}/hooks`]);
    expect(await faulty.stop()).toBe(130); // stopped, with nothing of the receiver's to fail
  });

  it('flags a hook after chat_finished (a broken invariant) and --fail-on-violation exits 1 for it', async () => {
    const target = await serve(['--json', 'hook-target', '--port', '0']);
    const run = async (fires: string[][], ...more: string[]) => {
      const proxy = await serve([
        '--json',
        'proxy',
        'hooks',
        '--port',
        '0',
        '--receiver-url',
        `${target.listening.url}/hooks`,
        '--fail-on-violation',
        ...more,
      ]);
      const lines: Record<string, unknown>[] = [];
      proxy.child.stdout?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
      });
      // the platform under test: each hook valid, the second about a chat already finished
      for (const fire of fires)
        expect(
          (await runCli(['hook-fire', ...fire, '--url', `${proxy.listening.url}/hooks`])).code,
        ).toBe(0);
      return { code: await proxy.stop(), lines };
    };
    // --chat-id: both about one chat (without it each run is a new chat)
    const oneChat = (...events: string[]) => events.map((e) => [e, '--chat-id', '7001']);
    const late = await run(oneChat('chat_finished', 'chat_updated'));
    expect(late.code).toBe(1);
    expect(late.lines.filter((l) => l.type === 'violation')).toMatchObject([
      { rule: 'hook-after-finish', spec: '6.2', exchanges: [1, 2] },
    ]);
    expect(late.lines.find((l) => l.type === 'summary')).toMatchObject({
      violations: 0,
      invariantViolations: 1,
    });
    // fixed: chat_finished comes last; and a rule switched off is not checked
    expect((await run(oneChat('chat_updated', 'chat_finished'))).code).toBe(130);
    expect(
      (await run(oneChat('chat_finished', 'chat_updated'), '--no-invariant', 'hook-after-finish'))
        .code,
    ).toBe(130);
    // a whole lifecycle, then one more event: two chats, not a finished chat starting again
    const again = await run([['--all'], ['chat_accepted']]);
    expect(again.lines.filter((l) => l.type === 'violation')).toEqual([]);
    expect(again.code).toBe(130);
  });

  it("another command's upstream in svc.config.json does not stop proxy hooks; the same flag does (exit 2)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-'));
    const config = join(dir, 'svc.config.json');
    writeFileSync(
      config,
      JSON.stringify({ version: 1, integratorUrl: 'http://127.0.0.1:9000/agent-messages' }),
    );
    const proxy = await serve([
      '--json',
      '--config',
      config,
      'proxy',
      'hooks',
      '--port',
      '0',
      '--receiver-url',
      'http://127.0.0.1:1/hooks',
    ]);
    expect(proxy.listening).toMatchObject({ iface: 'hooks', legs: [{ leg: 'receiver' }] });
    const flagged = await runCli([
      'proxy',
      'hooks',
      '--integrator-url',
      'http://127.0.0.1:9000',
      '--receiver-url',
      'http://127.0.0.1:1/hooks',
    ]);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toMatch(/--integrator-url is not an upstream of hooks/);
  });
  it("shows a receiver's two-segment URL as given; only a channel URL hides its random string (spec 4.1)", async () => {
    const hooks = await serve([
      '--json',
      'proxy',
      'hooks',
      '--port',
      '0',
      '--receiver-url',
      'http://127.0.0.1:1/webhook/crm-events',
    ]);
    expect(hooks.listening).toMatchObject({
      legs: [{ leg: 'receiver', upstream: 'http://127.0.0.1:1/webhook/crm-events' }],
    });
    const channel = await serve([
      '--json',
      'proxy',
      'channel',
      '--port',
      '0',
      '--platform-url',
      'http://127.0.0.1:1/dev-only-secret-1234/shop',
      '--integrator-url',
      'http://127.0.0.1:1/agent/messages',
    ]);
    expect(channel.listening).toMatchObject({
      legs: [
        { leg: 'platform', upstream: 'http://127.0.0.1:1/***/shop' },
        { leg: 'integrator', upstream: 'http://127.0.0.1:1/agent/messages' },
      ],
    });
  });

  it('names the faults it serves and their leg in its banner, before the first request', async () => {
    const upstreams = [
      '--platform-url',
      'http://127.0.0.1:1/dev-only-secret-1234/shop',
      '--integrator-url',
      'http://127.0.0.1:1/agent/messages',
    ];
    const proxy = (...more: string[]) =>
      serve(['--json', 'proxy', 'channel', '--port', '0', ...upstreams, ...more]);
    const byDefault = await proxy('--fail-first', '2');
    expect(byDefault.listening).toMatchObject({
      faults: { flags: '--fail-first 2', leg: 'integrator' },
    });
    const onPlatform = await proxy('--fault', 'status:503', '--fault-on', 'platform');
    expect(onPlatform.listening).toMatchObject({
      faults: { flags: '--fault status:503', leg: 'platform' },
    });
    const none = await proxy();
    expect(none.listening).not.toHaveProperty('faults');
  });
});
