/**
 * A fixture step that fits no step shape (zod reports one "Invalid input" for the union):
 * the loader names the fields of the step's own shape, the one its key names.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConversation } from '../../../src/conversation/load.js';

async function loadError(step: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-load-')), 'x.json');
  writeFileSync(file, JSON.stringify({ version: 1, name: 'x', steps: [step] }));
  try {
    await loadConversation(file);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('loaded');
}

describe('a step that fits no shape', () => {
  it.each([
    [{ customer: { text: 'hi', sender: { id: 42 } } }, ['steps.0.customer.sender.id: ']],
    [
      { control: { method: 'PUT', path: 5 } },
      ['steps.0.control.method: ', 'steps.0.control.path: '],
    ],
    [{ agent: { text: 'a', to: 1, wait: 'yes' } }, ['steps.0.agent.to: ', 'steps.0.agent.wait: ']],
    [
      { customer: { text: 1, typing: 'x', media: 3 } },
      ['steps.0.customer.text: ', 'steps.0.customer.typing: ', 'steps.0.customer.media: '],
    ],
  ])('%j: its own fields are named, no other shape', async (step, named) => {
    const message = await loadError(step);
    for (const part of named) expect(message).toContain(part);
    // a second reader found a control step blamed on the customer shape (fewest issues, tie)
    expect(message).not.toMatch(/Unrecognized key|received undefined/);
  });
});
