/**
 * Every file a user names on the command line, given a path that is not there and a folder in
 * place of the file: the error says what kind of file was wanted, the path as given, where a
 * relative path is read from and what writes one or where one is, with exit 2 and no stack
 * trace. Before, only the recording inputs (trace, report, coverage, record) had a hint: a
 * missing fault plan was "Could not read the fault plan /abs/path: no such file or folder."
 * and nothing more.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-input-files-e2e-'));
  mkdirSync(join(dir, 'folder'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback port nothing listens on: each command fails on its file before it calls out. */
const NOWHERE = 'http://127.0.0.1:9';

interface Row {
  /** the command line, the file's path in place of FILE */
  args: (file: string) => string[];
  /** the error code */
  code: string;
  /** what the message calls the file, and the flag after the path when there is one */
  kind: string;
  flag?: string;
  /** a part of the hint that says what writes one or where one is */
  source: string;
}

const ROWS: Record<string, Row> = {
  'hook-fire --from': {
    args: (file) => ['hook-fire', '--url', NOWHERE, '--from', file],
    code: 'SVC_E_READ',
    kind: 'hook body',
    source: 'svc-cli hook-fire <event> --verbose prints one',
  },
  'hook-target --reply': {
    args: (file) => ['hook-target', '--port', '0', '--reply', `chat_accepted=${file}`],
    code: 'SVC_E_READ',
    kind: 'hook reply',
    flag: '--reply chat_accepted',
    source: 'as fixtures/hooks/crm-reply.json (shipped with svc-cli) does',
  },
  'platform --fault-plan': {
    args: (file) => ['platform', '--port', '0', '--fault-plan', file],
    code: 'SVC_E_READ',
    kind: 'fault plan',
    source: 'schemas/fault-plan.schema.json describes it',
  },
  'hook-target --fault-plan': {
    args: (file) => ['hook-target', '--port', '0', '--fault-plan', file],
    code: 'SVC_E_READ',
    kind: 'fault plan',
    source: 'schemas/fault-plan.schema.json describes it',
  },
  'bot-sim --script': {
    args: (file) => ['bot-sim', '--port', '0', '--script', file],
    code: 'SVC_E_BOT_SCRIPT',
    kind: 'bot script',
    source: 'fixtures/bots/shop.json (shipped with svc-cli) is one',
  },
  'conform bot --script': {
    args: (file) => ['conform', 'bot', '--url', NOWHERE, '--token', 't0k', '--script', file],
    code: 'SVC_E_READ',
    kind: 'customer script',
    source: 'one per line (# comments) or a JSON array of strings',
  },
  'replay <file>': {
    args: (file) => ['replay', file],
    code: 'SVC_E_READ',
    kind: 'conversation',
    source:
      'svc-cli replay without a path runs ./fixtures/conversations, else the ones svc-cli ships; svc-cli record to-fixture session.ndjson --out flow.json writes one',
  },
  '--config': {
    args: (file) => ['--config', file, 'platform', '--port', '0'],
    code: 'SVC_E_CONFIG',
    kind: 'config file',
    source: 'svc-cli init writes one',
  },
  'platform --profile': {
    args: (file) => ['platform', '--port', '0', '--profile', file],
    code: 'SVC_E_PROFILE',
    kind: 'profile',
    source: 'svc-cli record profile session.ndjson --out real.profile.json writes',
  },
  'replay --profile': {
    args: (file) => ['replay', '--profile', file],
    code: 'SVC_E_PROFILE',
    kind: 'profile',
    source: 'svc-cli record profile session.ndjson --out real.profile.json writes',
  },
  'platform --cert': {
    args: (file) => ['platform', '--port', '0', '--cert', file, '--key', file],
    code: 'SVC_E_TLS_FILE',
    kind: 'certificate',
    flag: '--cert',
    source: 'leave both out for a generated loopback certificate',
  },
  'send-text --ca': {
    args: (file) => [
      'send-text',
      'hi',
      '--channel-url',
      `${NOWHERE}/r4nd0m/web-1`,
      '--sender-id',
      'c1',
      '--ca',
      file,
    ],
    code: 'SVC_E_TLS_FILE',
    kind: 'CA certificate',
    flag: '--ca',
    source: 'an svc-cli server writes its own with --tls-cert-out <file>',
  },
};

const named = (row: Row, given: string): string =>
  `Could not read the ${row.kind} ${given}${row.flag ? ` (${row.flag})` : ''}:`;

/** The run failed as an input error in one message: no stack trace, no internal error. */
function expectInputError(run: { code: number | null; stderr: string }, row: Row): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(`error [${row.code}] `);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toContain('SVC_E_INTERNAL');
}

describe('a file named on the command line that cannot be read', () => {
  it.each(Object.entries(ROWS))('%s: a missing path', async (_name, row) => {
    const run = await runCli(row.args('missing.json'), { cwd: dir });
    expectInputError(run, row);
    expect(run.stderr).toContain(`${named(row, 'missing.json')} no such file or folder.`);
    expect(run.stderr).toContain(`Check the path (a relative path is read from ${dir}).`);
    expect(run.stderr).toContain(row.source);
  });

  it.each(Object.entries(ROWS).filter(([name]) => name !== 'replay <file>'))(
    '%s: a folder in place of the file',
    async (_name, row) => {
      const run = await runCli(row.args('folder'), { cwd: dir });
      expectInputError(run, row);
      expect(run.stderr).toContain(`${named(row, 'folder')} it is a folder, not a file.`);
      expect(run.stderr).toContain(`Give the ${row.kind}'s own path, not a folder's.`);
      expect(run.stderr).toContain(row.source);
    },
  );

  it('replay: a folder with no conversation in it says what one is and what writes one', async () => {
    const run = await runCli(['replay', 'folder'], { cwd: dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      'error [SVC_E_NO_CONVERSATIONS] Could not replay: no conversation found in folder.',
    );
    expect(run.stderr).toContain(
      'A conversation is a .json file with "steps" (fixtures/conversations holds examples); svc-cli record to-fixture session.ndjson --out flow.json writes one from a recording.',
    );
  });
  it('replay --grep with a typo names the file it is closest to', async () => {
    const run = await runCli(['replay', '--grep', 'hook-lifecycel.json']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `--grep matches a conversation's name or file (did you mean "hook-lifecycle.json"?); drop it to run them all.`,
    );
    const far = await runCli(['replay', '--grep', 'zzzzzzzz']);
    expect(far.stderr).toContain("--grep matches a conversation's name or file; drop it");
  });
});
