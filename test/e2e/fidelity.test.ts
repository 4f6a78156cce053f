/**
 * Fidelity: the built CLI accepts every payload shaped as the public
 * documentation's samples (exit 0, warnings allowed) and refuses a customer message whose
 * file_size is a string (exit 1).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('svc-cli validate against docs-shaped payloads', () => {
  it('accepts every payload of fixtures/payloads/real: exit 0', async () => {
    const result = await runCli(['validate', 'fixtures/payloads/real']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toMatchInlineSnapshot(
      `"15 payloads: 7 valid, 8 with warnings, 0 invalid, 0 unreadable"`,
    );
  });

  it('refuses a customer message whose file_size is a string: exit 1', async () => {
    const body = JSON.stringify({
      sender: { id: 'c-7' },
      message: {
        type: 'document',
        file: 'https://files.example.org/invoice.pdf',
        file_name: 'invoice.pdf',
        file_size: '48213',
      },
    });
    const result = await runCli(['validate', '-'], { input: body });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatchInlineSnapshot(`
      "✗ channel.customer.document              <stdin>:1
          error   message.file_size: expected a number, got a numeric string (spec 2.4)
          more: svc-cli explain type_drift
      1 payload: 0 valid, 0 with warnings, 1 invalid, 0 unreadable
      "
    `);
  });

  it('keeps the platform drift a warning, and an error with --strict', async () => {
    const body = JSON.stringify({ recipient: { id: 5802 }, message: { type: 'text', text: 'Hi' } });
    expect((await runCli(['validate', '-'], { input: body })).code).toBe(0);
    expect((await runCli(['validate', '--strict', '-'], { input: body })).code).toBe(1);
  });
});
