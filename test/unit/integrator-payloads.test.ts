import { describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import {
  buildLocationMessage,
  buildMediaMessage,
  buildTextMessage,
  buildTypingMessage,
  kindOfChannelMessage,
} from '../../src/roles/integrator/index.js';

const sender = { id: 'c-1', name: 'Ann', photo: 'https://cdn.test/ann.png' };

describe('payload builders (spec 2.1, 2.3, 2.4)', () => {
  it.each([
    [
      'text',
      buildTextMessage({ sender, text: 'Hello', messageId: 'm-1' }),
      'channel.customer.text',
    ],
    [
      'media',
      buildMediaMessage({
        sender,
        type: 'video',
        media: {
          file: 'https://cdn.test/v.mp4',
          fileName: 'v.mp4',
          fileSize: 1024,
          duration: 12,
          thumb: 'https://cdn.test/t.jpg',
        },
      }),
      'channel.customer.video',
    ],
    [
      'location',
      buildLocationMessage({ sender, latitude: 55.75, longitude: 37.62 }),
      'channel.customer.location',
    ],
    ['typing start', buildTypingMessage({ sender, state: 'start' }), 'channel.customer.typing'],
    ['typing stop', buildTypingMessage({ sender, state: 'stop' }), 'channel.customer.typing'],
  ])('%s builds a valid payload of its kind', (_name, payload, kind) => {
    expect(kindOfChannelMessage('customer', payload)).toBe(kind);
    expect(validate(kind, payload)).toMatchObject({ ok: true, errors: [] });
  });

  it('writes the spec field names and leaves out absent options', () => {
    expect(
      buildMediaMessage({
        sender: { id: 'c' },
        type: 'document',
        media: { file: 'https://x.test/a.pdf', fileName: 'a.pdf', fileSize: 3 },
      }),
    ).toEqual({
      sender: { id: 'c' },
      message: { type: 'document', file: 'https://x.test/a.pdf', file_name: 'a.pdf', file_size: 3 },
    });
    expect(buildTypingMessage({ sender: { id: 'c' }, state: 'stop', messageId: 'm' })).toEqual({
      sender: { id: 'c' },
      message: { type: 'typeout', id: 'm' },
    });
  });

  it('builds what it is told: the contract, not the builder, rejects bad values', () => {
    const payload = buildMediaMessage({
      sender: { id: '' },
      type: 'photo',
      media: { file: 'ftp://x', fileName: 'a', fileSize: -1 },
    });
    const result = validate('channel.customer.photo', payload);
    expect(result.ok).toBe(false);
    expect(result.errors.map((i) => i.path).sort()).toEqual([
      'message.file',
      'message.file_size',
      'sender.id',
    ]);
  });
});
