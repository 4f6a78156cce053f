import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('svc-cli schema', () => {
  it('lists the kinds', async () => {
    const result = await runCli(['schema', '--list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(64);
    expect(lines.slice(0, 2).join('\n')).toMatchInlineSnapshot(`
      "kind                                    if  spec  description
      channel.customer.text                   A   2.1   customer text message (integrator -> platform)"
    `);
  });

  it('prints one kind as JSON Schema draft 2020-12', async () => {
    const result = await runCli(['schema', '--kind', 'bot.error']);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'bot.error',
      required: ['error'],
    });
  });

  it('prints every kind keyed by name without flags', async () => {
    const all = JSON.parse((await runCli(['schema'])).stdout) as Record<string, unknown>;
    expect(Object.keys(all)).toHaveLength(63);
    expect(all).toHaveProperty(['hook.offline_message']);
  });

  it('writes one file per kind with --out', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-schema-'));
    try {
      const result = await runCli(['schema', '--out', dir]);
      expect(result.code).toBe(0);
      const files = readdirSync(dir);
      expect(files).toHaveLength(63);
      expect(files).toContain('widget.setCustomData.args.schema.json');
      const schema = JSON.parse(readFileSync(path.join(dir, 'channel.status.schema.json'), 'utf8'));
      expect(schema.title).toBe('channel.status');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes one kind into a .json file, and names a path it cannot write (exit 2)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-schema-'));
    try {
      writeFileSync(path.join(dir, 'afile'), '');
      const one = await runCli(['schema', '--kind', 'bot.error', '--out', 'one.json'], {
        cwd: dir,
      });
      expect(one.code).toBe(0);
      expect(JSON.parse(readFileSync(path.join(dir, 'one.json'), 'utf8')).title).toBe('bot.error');
      for (const args of [
        ['schema', '--out', 'afile/x'],
        ['schema', '--format', 'openapi', '--out', 'afile/x'],
      ]) {
        const bad = await runCli(args, { cwd: dir });
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain(
          'error [SVC_E_WRITE] Could not write into afile/x: a part of the path is not a folder.',
        );
        expect(bad.stderr).not.toContain('SVC_E_INTERNAL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown kind with exit 2', async () => {
    const result = await runCli(['schema', '--kind', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_E_UNKNOWN_KIND');
  });

  it('prints the OpenAPI 3.1 document, one role side, and the AsyncAPI 3.0 document', async () => {
    const whole = JSON.parse((await runCli(['schema', '--format', 'openapi'])).stdout) as {
      openapi: string;
      webhooks: Record<string, unknown>;
    };
    expect(whole.openapi).toBe('3.1.0');
    expect(whole.webhooks).toHaveProperty(['hook.chat_accepted']);
    const integrator = JSON.parse(
      (await runCli(['schema', '--format', 'openapi', '--role', 'integrator'])).stdout,
    ) as { paths: Record<string, unknown> };
    expect(Object.keys(integrator.paths)).toEqual(['/{channel_public_id}']);
    const asyncapi = JSON.parse((await runCli(['schema', '-f', 'asyncapi'])).stdout) as {
      asyncapi: string;
    };
    expect(asyncapi.asyncapi).toBe('3.0.0');
  });

  it('writes openapi.<role>.json with --out and refuses --role without a document format', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-openapi-'));
    try {
      const result = await runCli([
        'schema',
        '-f',
        'openapi',
        '--role',
        'bot-provider',
        '--out',
        dir,
      ]);
      expect(result.code).toBe(0);
      expect(readdirSync(dir)).toEqual(['openapi.bot-provider.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const refused = await runCli(['schema', '--role', 'integrator']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatchInlineSnapshot(`
      "error [SVC_E_USAGE] Could not print the schemas: --role applies to --format openapi.
        Add --format openapi, or drop --role.
        more: svc-cli explain SVC_E_USAGE
      "
    `);
    const asyncRole = await runCli(['schema', '-f', 'asyncapi', '--role', 'integrator']);
    expect(asyncRole.code).toBe(2);
    expect(asyncRole.stderr).toContain('--role applies to --format openapi only');
  });
});
