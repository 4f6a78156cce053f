import { describe, expect, it } from 'vitest';
import { tablesForTerminal } from '../../../src/cli/render/markdown-table.js';

const table = [
  'Before.',
  '',
  '| field | type | meaning |',
  '| --- | --- | --- |',
  '| `event` | string | which event this is |',
  '| `a\\|b` | number |  |',
  '',
  'After.',
].join('\n');

describe('tablesForTerminal', () => {
  it('aligns the columns when the table fits', () => {
    expect(tablesForTerminal(table, 80).split('\n')).toEqual([
      'Before.',
      '',
      'field  type    meaning',
      '-----  ------  -------------------',
      'event  string  which event this is',
      'a|b    number',
      '',
      'After.',
    ]);
  });

  it('one "key: value" block per row when it does not', () => {
    expect(tablesForTerminal(table, 20).split('\n')).toEqual([
      'Before.',
      '',
      'event',
      '  type: string',
      '  meaning: which event this is',
      '',
      'a|b',
      '  type: number',
      '',
      'After.',
    ]);
  });

  it('leaves text without tables as it is', () => {
    expect(tablesForTerminal('| not a table |\nplain', 80)).toBe('| not a table |\nplain');
  });
});
