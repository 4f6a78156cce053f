import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('svc-cli schema', () => {
  it('lists the kinds', async () => {
    const result = await runCli(['schema', '--list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(57);
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
    expect(Object.keys(all)).toHaveLength(56);
    expect(all).toHaveProperty(['hook.offline_message']);
  });

  it('writes one file per kind with --out', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-schema-'));
    try {
      const result = await runCli(['schema', '--out', dir]);
      expect(result.code).toBe(0);
      const files = readdirSync(dir);
      expect(files).toHaveLength(56);
      expect(files).toContain('widget.setCustomData.args.schema.json');
      const schema = JSON.parse(readFileSync(path.join(dir, 'channel.status.schema.json'), 'utf8'));
      expect(schema.title).toBe('channel.status');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown kind with exit 2', async () => {
    const result = await runCli(['schema', '--kind', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_E_UNKNOWN_KIND');
  });
});
