import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
  openSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

const good = JSON.stringify({ sender: { id: 'c1' }, message: { type: 'text', text: 'hi' } });
const bad = JSON.stringify({ sender: { id: '' }, message: { type: 'text', text: 'hi' } });
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-validate-'));
  writeFileSync(path.join(dir, 'good.json'), good);
  writeFileSync(path.join(dir, 'bad.json'), bad);
  writeFileSync(path.join(dir, 'broken.json'), '{\n  "sender": {"id": "c1"},\n  "message": }\n');
  writeFileSync(path.join(dir, 'empty.json'), '   \n');
  writeFileSync(path.join(dir, 'binary.json'), Buffer.from([0x7b, 0x00, 0x01, 0xff, 0x7d]));
  // random bytes with line breaks in them: a binary file named as NDJSON
  const noise = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256));
  writeFileSync(path.join(dir, 'binary.ndjson'), noise);
  writeFileSync(path.join(dir, 'proto.json'), '{"result":"ok","__proto__":{"polluted":true}}');
  writeFileSync(path.join(dir, 'deep.json'), `${'['.repeat(10_000)}${']'.repeat(10_000)}`);
  writeFileSync(
    path.join(dir, 'deep-field.json'),
    `{"result":"ok","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], input?: string) =>
  runCli(args, { cwd: dir, ...(input === undefined ? {} : { input }) });

describe('svc-cli validate', () => {
  it('prints one line per payload with its issues and a summary; exit 1 on an invalid one', async () => {
    const result = await run(['validate', 'good.json', 'bad.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatchInlineSnapshot(`
      "✓ channel.customer.text                  good.json
      ✗ channel.customer.text                  bad.json
          error   sender.id: must be a non-empty string (an empty id means the message is not sent) (spec 2.1)
          more: svc-cli explain channel.customer.text sender.id
      2 payloads: 1 valid, 0 with warnings, 1 invalid, 0 unreadable
      "
    `);
  });

  it('exits 0 when all are valid', async () => {
    expect((await run(['validate', 'good.json'])).code).toBe(0);
  });

  it('prints NDJSON with --json: one result per payload, then a summary', async () => {
    const result = await run(['--json', 'validate', 'good.json', 'bad.json']);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => [e.type, e.verdict ?? e.exitCode])).toEqual([
      ['result', 'valid'],
      ['result', 'invalid'],
      ['summary', 1],
    ]);
    expect(events[1]).toMatchObject({
      source: 'bad.json',
      kind: 'channel.customer.text',
      errors: [{ path: 'sender.id', code: 'empty', spec: '2.1', severity: 'error' }],
    });
  });

  it('validates NDJSON from stdin line by line, with --kind and --strict', async () => {
    const lines = `${good}\n\n${JSON.stringify({ result: 'ok', extra: 1 })}\n`;
    const loose = await run(['validate', '-', '--kind', 'channel.integrator.reply'], lines);
    expect(loose.stdout).toContain('<stdin>:1');
    expect(loose.stdout).toContain('<stdin>:3');
    const strict = await run(['validate', '-', '--strict'], lines);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('extra: not in the spec');
  });

  it('reads one pretty-printed document from stdin', async () => {
    const result = await run(['validate'], JSON.stringify(JSON.parse(good), null, 2));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ channel.customer.text');
  });

  it('names file, line and column of a non-JSON file and still validates the other inputs (exit 2)', async () => {
    const result = await run(['validate', 'broken.json', 'good.json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatchInlineSnapshot(`
      "! unreadable                             broken.json
          error   not JSON at line 3, column 14: Unexpected token '}'
      ✓ channel.customer.text                  good.json
      2 payloads: 1 valid, 0 with warnings, 0 invalid, 1 unreadable
      "
    `);
  });

  it.each([
    ['empty.json', 'empty file, no JSON payload'],
    ['binary.json', 'binary file (contains NUL bytes), not JSON'],
    ['binary.ndjson', 'binary input (contains NUL bytes), not NDJSON'],
    ['missing.json', 'no such file or folder'],
    ['nothing/**/*.json', 'the glob matches no file'],
  ])('%s: one clear line, exit 2, other inputs still validated', async (input, message) => {
    const result = await run(['validate', input, 'good.json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`! unreadable`);
    expect(result.stdout).toContain(`error   ${message}`);
    expect(result.stdout).toContain('✓ channel.customer.text                  good.json');
    expect(result.stderr).toBe('');
  });

  it('says binary input on stdin is binary, once', async () => {
    const noise = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256));
    const result = await runCli(['validate', '-'], { input: noise.toString('latin1') });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('error   binary input on stdin (contains NUL bytes), not JSON');
    expect(result.stdout).toContain('1 unreadable');
  });

  it('refuses a 50 MB JSON file with a clear message', async () => {
    const big = path.join(dir, 'big.json');
    const fd = openSync(big, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 50; i++) writeSync(fd, chunk);
    closeSync(fd);
    const result = await run(['validate', 'big.json', 'good.json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('file is 50.0 MB, over the 10 MB limit for one JSON document');
    rmSync(big);
  });

  it('gives a verdict, not a stack overflow, for JSON nested 10,000 levels', async () => {
    const result = await run(['validate', 'deep.json', 'deep-field.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('could not tell the kind: an array is no payload');
    expect(result.stdout).toContain('nested deeper than 64 levels');
  });

  it('reports a __proto__ key as an error', async () => {
    const result = await run(['validate', 'proto.json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '__proto__: key "__proto__" is refused (prototype pollution guard)',
    );
  });

  it('walks a folder of 3000 files', async () => {
    const many = path.join(dir, 'many', 'nested');
    mkdirSync(many, { recursive: true });
    for (let i = 0; i < 3000; i++) writeFileSync(path.join(many, `p${i}.json`), good);
    const result = await run(['--json', 'validate', 'many']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(summary).toMatchObject({ type: 'summary', payloads: 3000, valid: 3000 });
  });

  it('matches globs', async () => {
    const result = await run(['validate', '*o*d.json']);
    expect(result.stdout).toContain('good.json');
    expect(result.code).toBe(0);
  });

  it('leaves sidecar expectations out of a glob, as a folder walk does', async () => {
    const root = repoRoot;
    const globbed = await runCli(['validate', '--json', 'fixtures/payloads/hooks/*.json'], {
      cwd: root,
    });
    const walked = await runCli(['validate', '--json', 'fixtures/payloads/hooks'], { cwd: root });
    const sources = (r: { stdout: string }) =>
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { source?: string })
        .flatMap((e) => (e.source === undefined ? [] : [path.basename(e.source)]));
    expect(sources(globbed).some((s) => s.endsWith('.expect.json'))).toBe(false);
    expect(sources(globbed)).toEqual(sources(walked));
    const only = await runCli(['validate', 'fixtures/payloads/hooks/*.expect.json'], { cwd: root });
    expect(only.code).toBe(2);
    expect(only.stdout + only.stderr).toContain(
      'the glob matches only sidecar expectations (.expect.json), no payload',
    );
  });

  it('refuses an unknown --kind as a usage error with suggestions', async () => {
    const result = await run(['validate', 'good.json', '--kind', 'channel.customer.txt']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatchInlineSnapshot(`
      "error [SVC_E_UNKNOWN_KIND] Could not find payload kind "channel.customer.txt": the contract has no such kind.
        Did you mean "channel.customer.text", "channel.customer.photo", "channel.customer.typing"? List them with: svc-cli schema --list
        more: svc-cli explain SVC_E_UNKNOWN_KIND
      "
    `);
  });

  it('checks the samples of fixtures/payloads against their names (npm start)', async () => {
    const result = await runCli(['validate', 'fixtures/payloads', '--check-expectations']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/expectations met\n$/);
    expect(result.stdout).not.toContain('UNMET');
  });

  it('fails --check-expectations when a sample does not match its name', async () => {
    writeFileSync(path.join(dir, 'liar.valid.json'), bad);
    const result = await run(['validate', 'liar.valid.json', '--check-expectations']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('UNMET   expected valid, got invalid');
  });
});
