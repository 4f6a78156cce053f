/**
 * `conform platform` on the command line against `platform --mutant redeliver-new-id`: the
 * redelivery case's series (its listener refuses the first attempts) comes back under new
 * ids, and the run exits 1 naming redelivery-id (spec 8) with both attempts. The fixed
 * platform and the switch are in test/integration/conform-invariants.test.ts. With
 * --bot-listen-port against `platform --mutant agent-joined-unasked`, the run exits 1 naming
 * agent-joined (spec 3); against a platform whose bot channel has its own token and provider
 * id, given with --token and --provider-id, it passes and prints no token. Against
 * `platform --mutant widget-push-ids-rewind` the page conform attaches to the simulator's
 * widget channel reports svc_onAccept for a push numbered below the call's end it reported
 * before, and the run exits 1 naming callback-order (spec 6.4).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, type Json } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

/**
 * `platform --mutant <mutant> ...platformFlags` at scale 0.2, then `conform platform` against
 * its channel with `conformFlags`; the schedule's timing is not under test here (a busy
 * machine is late), so conform gets all the tolerance the schedule allows.
 */
async function conformAgainstMutant(
  mutant: string | undefined,
  platformFlags: string[],
  conformFlags: string[],
) {
  const scale = ['--time-scale', '0.2'];
  const platform = spawnCli([
    '--json',
    ...scale,
    'platform',
    '--port',
    '0',
    '--no-console',
    ...(mutant === undefined ? [] : ['--mutant', mutant]),
    ...platformFlags,
  ]);
  try {
    const listening = await platform.next((o) => o.type === 'listening');
    const channelUrl = (listening.channels as Json[])[0]!.url as string;
    return await runCli([
      ...scale,
      'conform',
      'platform',
      '--channel-url',
      channelUrl,
      ...conformFlags,
      '--tolerance',
      '2900',
    ]);
  } finally {
    platform.child.kill('SIGTERM');
    await platform.exit;
  }
}

describe('conform platform: a platform that renames a redelivery', () => {
  it('exits 1 naming redelivery-id (spec 8) and both exchanges', async () => {
    const { run } = await onFreePort((hookPort) =>
      conformAgainstMutant(
        'redeliver-new-id',
        ['--hook-url', `http://127.0.0.1:${hookPort}/hooks`],
        ['--hook-listen-port', String(hookPort)],
      ),
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      /redelivery-id \(spec 8\): #\d+ agent\.text attempt 2 at \+[\d.]+ s carries id \S+-retry-2; the attempt before, #\d+ agent\.text at \+[\d.]+ s, carried \S+ \[exchanges #\d+ and #\d+; --no-invariant redelivery-id switches it off\]/,
    );
    expect(run.stdout).toContain('✓ redelivery schedule seen from the integrator');
  });
});

describe('conform platform --bot-listen-port: a platform that sends AGENT_JOINED unasked', () => {
  it('exits 1 naming agent-joined (spec 3) and both exchanges', async () => {
    const { run, port: botPort } = await onFreePort((port) =>
      conformAgainstMutant(
        'agent-joined-unasked',
        [
          ...['--bot-provider-url', `http://127.0.0.1:${port}`],
          ...['--bot-token', 'svc-conform-bot', '--provider-id', 'svc-conform'],
        ],
        ['--bot-listen-port', String(port)],
      ),
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    // what to attach to the platform's channel is said before the cases
    expect(run.stderr).toContain(
      `bot provider listening at http://127.0.0.1:${botPort}: attach it to the platform's channel (svc-cli platform --bot-provider-url http://127.0.0.1:${botPort} --bot-token svc-conform-bot --provider-id svc-conform)`,
    );
    expect(run.stdout).toMatch(
      /agent-joined \(spec 3\): #\d+ AGENT_JOINED at \+[\d.]+ s without an INVITE_AGENT or a hand-over before it \(the exchange before: #\d+ customer\.text at \+[\d.]+ s\) \[exchanges #\d+ and #\d+; --no-invariant agent-joined switches it off\]/,
    );
  });
});

describe("conform platform --bot-listen-port --token --provider-id: a platform's own bot channel", () => {
  it('hands each chat over with the token and provider id given, and never prints the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-own-bot-'));
    const own = ['--provider-id', 'acme'];
    // the platform is told the bot's URL when it starts, before conform listens: a port known
    // to both, not 0
    const { run, port } = await onFreePort((botPort) =>
      conformAgainstMutant(
        undefined,
        [
          '--bot-provider-url',
          `http://127.0.0.1:${botPort}`,
          '--bot-token',
          'my-bot-token',
          ...own,
        ],
        [
          ...['--bot-listen-port', String(botPort), '--token', 'my-bot-token', ...own],
          ...['--record', join(dir, 'run.ndjson'), '--report', join(dir, 'run.html')],
        ],
      ),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `bot provider listening at http://127.0.0.1:${port}: attach it to the platform's channel (svc-cli platform --bot-provider-url http://127.0.0.1:${port} --bot-token <token> --provider-id acme); it posts INVITE_AGENT to http://127.0.0.1:`,
    );
    expect(run.stderr).toContain('/webhooks/acme/<token> (--bot-api-url sets it)');
    expect(run.stdout).toMatch(/invariants: \d+ checked on \d+ conversations/);
    expect(run.stdout + run.stderr).not.toContain('my-bot-token');
    // nor do the files: the recording has the bot's events, under a masked path
    const recorded = readFileSync(join(dir, 'run.ndjson'), 'utf8');
    expect(recorded).toContain('/webhooks/acme/***');
    expect(recorded).not.toContain('my-bot-token');
    expect(readFileSync(join(dir, 'run.html'), 'utf8')).not.toContain('my-bot-token');
  });
});

/**
 * Runs `attempt` on a port freePort found, and on another one when some other program took
 * it in between (the machine runs other suites): the platform is told the port conform will
 * listen on before conform starts, so neither can take port 0.
 */
async function onFreePort(
  attempt: (port: number) => Promise<CliRun>,
): Promise<{ run: CliRun; port: number }> {
  for (let left = 3; ; left--) {
    const port = await freePort();
    const run = await attempt(port);
    if (left === 1 || !run.stderr.includes('SVC_E_PORT_IN_USE')) return { run, port };
  }
}

describe('conform platform: a simulator that numbers the accept push below the call before it', () => {
  it('exits 1 naming callback-order (spec 6.4) and both callback reports', async () => {
    const run = await conformAgainstMutant('widget-push-ids-rewind', [], []);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      /callback-order \(spec 6\.4\): #\d+ callback svc_onAccept at \+[\d.]+ s reflects pushed event 1 \(agent_accepted\) yet came after #\d+ callback svc_onCallEnd at \+[\d.]+ s, which reflects the later push \d+ \(call_status\) \[exchanges #\d+ and #\d+; --no-invariant callback-order switches it off\]/,
    );
    // the page case itself passed: only the invariant relates the two reports
    expect(run.stdout).toContain('✓ page callbacks follow the pushes');
  });
});
