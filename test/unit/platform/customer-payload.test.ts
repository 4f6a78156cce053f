import { describe, expect, it } from 'vitest';
import { customerPayload } from '../../../src/platform/channel/customer-delivery.js';

const options = {
  customer: {
    key: 'ch/c-1',
    channelId: 'ch',
    senderId: 'c-1',
    clientId: '501',
    visitorNumber: 1,
  },
  sender: { name: 'Ann', photo: 'https://example.com/ann.png', lineType: 'agent' as const },
  message: { type: 'text', text: 'Hello' },
  messageId: '0a1b2c3d-4e5f-6789-abcd-ef0123456789',
};

describe('customerPayload: the agent message the integrator gets (spec 2.2)', () => {
  it('names the sender, returns the recipient id unchanged and carries the message id as a string', () => {
    expect(customerPayload(undefined, options)).toEqual({
      sender: { name: 'Ann', photo: 'https://example.com/ann.png' },
      recipient: { id: 'c-1' },
      message: { type: 'text', text: 'Hello', id: options.messageId },
    });
  });

  it('leaves out a photo nobody set', () => {
    const { photo: _photo, ...sender } = options.sender;
    expect(customerPayload(undefined, { ...options, sender }).sender).toEqual({ name: 'Ann' });
  });

  it('breaks the contract the way each payload mutant says', () => {
    expect(customerPayload('drop-agent-name', options).sender).toEqual({
      photo: 'https://example.com/ann.png',
    });
    expect(customerPayload('drop-agent-photo', options).sender).toEqual({ name: 'Ann' });
    expect(customerPayload('numeric-message-ids', options).message.id).toBe(0x0a1b2c3d4e5f);
  });
});
