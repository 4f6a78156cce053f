/**
 * `hook-target --reply event=file` (src/cli/commands/hook-target-run.ts): a reply file that
 * breaks the event's reply schema is still served, but said at start with the path and rule;
 * before, a slip in one's own file showed only as the platform's "crm data not shown".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReplies } from '../../../src/cli/commands/hook-target-run.js';

describe('loadReplies', () => {
  it('warns about a reply that breaks hook.<event>.reply, and serves it as written', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-replies-'));
    const reply = { result: 'ok', custom_data: [{ title: 5, content: 'x' }] };
    writeFileSync(join(cwd, 'crm.json'), JSON.stringify(reply));
    const notes: string[] = [];
    const replies = await loadReplies({ cwd }, ['chat_accepted=crm.json'], (l) => notes.push(l));
    expect(replies).toEqual({ chat_accepted: reply });
    expect(notes).toEqual([
      'warning: --reply chat_accepted: crm.json breaks hook.chat_accepted.reply (custom_data[0].title: must be a string (spec 6.2)); served as written, so a platform will not take it',
    ]);
  });

  it('says nothing about a reply that conforms', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-replies-'));
    writeFileSync(join(cwd, 'ok.json'), '{"result":"ok"}');
    const notes: string[] = [];
    await loadReplies({ cwd }, ['chat_finished=ok.json'], (l) => notes.push(l));
    expect(notes).toEqual([]);
  });
});
