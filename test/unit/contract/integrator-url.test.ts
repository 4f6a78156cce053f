import { describe, expect, it } from 'vitest';
import { integratorDeliveryUrl } from '../../../src/contract/integrator-url.js';

describe('integratorDeliveryUrl (spec 4.2)', () => {
  it('appends the channel id as a path segment, trailing slashes dropped', () => {
    expect(integratorDeliveryUrl('http://127.0.0.1:9000/agent-messages', 'shop')).toBe(
      'http://127.0.0.1:9000/agent-messages/shop',
    );
    expect(integratorDeliveryUrl('http://127.0.0.1:9000/agent-messages//', 'shop')).toBe(
      'http://127.0.0.1:9000/agent-messages/shop',
    );
    expect(integratorDeliveryUrl('http://127.0.0.1:9000', 'a b/c')).toBe(
      'http://127.0.0.1:9000/a%20b%2Fc',
    );
  });

  it("keeps the integrator's query and fragment after the id, not before it", () => {
    expect(integratorDeliveryUrl('http://127.0.0.1:9000/agent-messages?x=1', 'shop')).toBe(
      'http://127.0.0.1:9000/agent-messages/shop?x=1',
    );
    expect(integratorDeliveryUrl('http://127.0.0.1:9000/in/?key=a/b#top', 'shop')).toBe(
      'http://127.0.0.1:9000/in/shop?key=a/b#top',
    );
    expect(integratorDeliveryUrl('http://127.0.0.1:9000/in#frag', 'shop')).toBe(
      'http://127.0.0.1:9000/in/shop#frag',
    );
  });
});
