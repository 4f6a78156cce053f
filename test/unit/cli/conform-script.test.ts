import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCustomerScript } from '../../../src/cli/commands/conform-run.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-script-'));
const file = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe('conform bot --script', () => {
  it('reads one text per line, skipping blanks and # comments, or a JSON array', async () => {
    expect(
      await readCustomerScript(
        dir,
        file('intents.txt', '# a booking bot\nI want to book a table\n\nmenu\n'),
      ),
    ).toEqual(['I want to book a table', 'menu']);
    expect(await readCustomerScript(dir, file('intents.json', '["hi", "agent"]'))).toEqual([
      'hi',
      'agent',
    ]);
  });

  it('refuses a missing file, bad JSON and a script with no text, saying why', async () => {
    await expect(readCustomerScript(dir, 'nope.txt')).rejects.toThrow(
      'Could not read the customer script nope.txt: no such file or folder.',
    );
    await expect(readCustomerScript(dir, file('bad.json', '[1, 2]'))).rejects.toThrow(
      'Could not use the script bad.json: it holds no customer text.',
    );
    await expect(readCustomerScript(dir, file('empty.txt', '# nothing\n'))).rejects.toMatchObject({
      code: 'SVC_E_READ',
      category: 'input',
    });
  });
});
