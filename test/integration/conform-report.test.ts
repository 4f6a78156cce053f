/**
 * `conform <suite> --report` for the suites that face someone else's party (hooks, integrator,
 * bot): a CI job keeps one HTML file per gate. The page lists every case, the failed ones
 * first with what failed; conform bot's also draws the chats its embedded platform journaled
 * (the bot's token masked).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { closePeers, json, startPeer } from '../helpers/broken-peers.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';
import { freePort } from '../helpers/free-port.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await closePeers();
});

describe('conform --report beyond conform platform', () => {
  it('conform hooks: the cases, the failed ones first with why; no chat to draw', async () => {
    // a receiver that fails chat_finished (500) and takes the rest
    const url = await startPeer((_req, res, body) =>
      body.includes('"chat_finished"') ? json(res, 500, { error: 'boom' }) : json(res, 200, {}),
    );
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-report-'));
    const t = createTestContext({ cwd: dir });
    const code = await runInProcess(t, [
      '--time-scale',
      '0.1',
      'conform',
      'hooks',
      '--url',
      `${url}/hooks`,
      '--report',
      'hooks.html',
    ]);
    expect(code, t.stderr()).toBe(1);
    const note = /HTML report written to hooks\.html: (\d+) failed, (\d+) cases\n/.exec(t.stderr());
    expect(note, t.stderr()).not.toBeNull();
    const html = readFileSync(join(dir, 'hooks.html'), 'utf8');
    expect(html).toContain('svc-cli conform hooks');
    const failedAt = html.indexOf('chat_finished');
    expect(failedAt).toBeGreaterThan(0);
    expect(html).toContain('HTTP 500');
    // every case is on the page, counted as the terminal counts them
    expect(t.stdout()).toMatch(new RegExp(`${note![1]} failed`));
    // no chat is opened, so none is drawn nor counted, and no word on why per case
    expect(html).not.toContain('the chats it opened');
    expect(html).not.toContain('no chat to draw');
    expect(html).not.toContain('conversation');
    expect(html).toContain('only failed cases');
  });

  it('conform bot --report: the chats of its embedded platform, the token masked', async () => {
    const port = await freePort();
    const clock = createClock();
    const bot = await createBotProvider({
      token: 's3cr3t-bot-token',
      providerId: 'acme',
      platformUrl: `http://127.0.0.1:${port}`,
      clock,
    });
    closers.push(() => bot.close(10));
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-report-'));
    const t = createTestContext({ cwd: dir });
    const code = await runInProcess(t, [
      'conform',
      'bot',
      '--url',
      bot.url,
      '--token',
      's3cr3t-bot-token',
      '--provider-id',
      'acme',
      '--platform-listen-port',
      String(port),
      '--report',
      'bot.html',
    ]);
    expect(code, t.stdout() + t.stderr()).toBe(0);
    expect(t.stderr()).toMatch(
      /HTML report written to bot\.html: \d+ cases, [1-9]\d* conversations?\n/,
    );
    const html = readFileSync(join(dir, 'bot.html'), 'utf8');
    expect(html).toContain('CLIENT_MESSAGE');
    expect(html).toContain('BOT_MESSAGE');
    // the page judges no rule on svc-cli's own sending (its scripted AGENT_JOINED)
    expect(html).not.toContain('agent-joined (spec');
    expect(html).not.toContain('invariants hold');
    expect(html).not.toContain('invariant violation');
    expect(html).not.toContain('s3cr3t-bot-token');
    // nothing left behind but the page
    expect(readdirSync(dir)).toEqual(['bot.html']);
  });

  it('conform integrator and bot --record are refused: conform platform records what it saw', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-report-'));
    const t = createTestContext({ cwd: dir });
    const code = await runInProcess(t, [
      'conform',
      'integrator',
      '--url',
      'http://127.0.0.1:1/agent',
      '--record',
      'x.ndjson',
    ]);
    expect(code).toBe(2);
    expect(t.stderr()).toContain('--record is a flag of conform platform');
    expect(existsSync(join(dir, 'x.ndjson'))).toBe(false);
  });

  it('an unreachable peer (exit 3) still gets its --report page: why no case ran', async () => {
    // a port nothing listens on
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-report-'));
    const t = createTestContext({ cwd: dir });
    const code = await runInProcess(t, [
      'conform',
      'hooks',
      '--url',
      `http://127.0.0.1:${port}/hooks`,
      '--report',
      'hooks.html',
    ]);
    expect(code, t.stderr()).toBe(3);
    expect(t.stderr()).toContain('HTML report written to hooks.html: the peer is unreachable');
    const html = readFileSync(join(dir, 'hooks.html'), 'utf8');
    expect(html).toContain('conform hooks');
    expect(html).toContain(`the hook receiver at http://127.0.0.1:${port}/hooks is unreachable`);
  });
});
