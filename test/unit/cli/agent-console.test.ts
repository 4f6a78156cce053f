import { describe, expect, it } from 'vitest';
import { parseConsoleLine } from '../../../src/cli/console/agent-console.js';

describe('agent console lines', () => {
  it.each([
    ['/call +49301234567', { kind: 'call', phone: '+49301234567' }],
    // the number as the bad-phone hint writes it (SVC_E_PHONE: "Example: +49 30 1234567")
    ['/call +49 30 1234567', { kind: 'call', phone: '+49 30 1234567' }],
    [
      '/call +49 30 1234567 error no answer @c-7',
      { kind: 'call', phone: '+49 30 1234567', errorReason: 'no answer', customerId: 'c-7' },
    ],
    ['/call', { kind: 'error', message: '/call <phone> [error <reason>]' }],
    ['/call +49301234567 error', { kind: 'error', message: '/call <phone> [error <reason>]' }],
    ['/call error busy', { kind: 'error', message: '/call <phone> [error <reason>]' }],
  ])('%s', (line, action) => {
    expect(parseConsoleLine(line)).toEqual(action);
  });

  it('a file with or without its size (the command asks the server for one not typed)', () => {
    expect(parseConsoleLine('/media photo https://cdn.example/cat.jpg cat.jpg 48213')).toEqual({
      kind: 'media',
      message: {
        type: 'photo',
        file: 'https://cdn.example/cat.jpg',
        file_name: 'cat.jpg',
        file_size: 48213,
      },
    });
    // a malformed escape in the URL is no crash of the simulator: the name is taken as typed
    expect(parseConsoleLine('/media photo http://x/a%E0%A4%A.png 12')).toMatchObject({
      message: { file_name: 'a%E0%A4%A.png', file_size: 12 },
    });
    // a lone number after the URL is its size
    expect(parseConsoleLine('/media photo https://cdn.example/cat.jpg 999')).toMatchObject({
      message: { file_name: 'cat.jpg', file_size: 999 },
    });
    expect(parseConsoleLine('/media photo https://cdn.example/cat.jpg @c-1')).toEqual({
      kind: 'media',
      customerId: 'c-1',
      message: { type: 'photo', file: 'https://cdn.example/cat.jpg', file_name: 'cat.jpg' },
    });
  });

  it('answers, with or without a customer', () => {
    expect(parseConsoleLine('Hello there')).toEqual({ kind: 'say', text: 'Hello there' });
    expect(parseConsoleLine('@c-42 Hello')).toEqual({
      kind: 'say',
      customerId: 'c-42',
      text: 'Hello',
    });
  });
});
