/**
 * What the proxy says of a request whose kind it cannot tell: on the hook leg, a body that
 * names its event in `event` (the bot's key) is pointed at `event_name`, where hooks name it.
 */
import { describe, expect, it } from 'vitest';
import { checkRequest } from '../../src/proxy/check.js';
import { legsOf } from '../../src/proxy/legs.js';

const legOf = (iface: 'hooks' | 'bot', name: string) => {
  const leg = legsOf(iface).find((l) => l.name === name);
  if (!leg) throw new Error(`no ${name} leg on ${iface}`);
  return leg;
};

describe('checkRequest: a kind it cannot tell', () => {
  it('points a hook that names its event in "event" at event_name (spec 6.2)', () => {
    const checked = checkRequest(
      legOf('hooks', 'receiver'),
      'POST',
      '/hooks',
      JSON.stringify({ event: 'chat_accepted', chat: { id: 1 } }),
    );
    expect(checked.errors.map((e) => [e.rule, e.spec])).toEqual([
      [
        'could not tell the kind: event "chat_accepted" is not a bot event of spec 6.1; a hook names its event in event_name',
        '6.2',
      ],
    ]);
  });

  it('adds nothing on the bot leg, where "event" is the right key', () => {
    const checked = checkRequest(
      legOf('bot', 'provider'),
      'POST',
      '/provider',
      JSON.stringify({ event: 'CHAT_STARTED' }),
    );
    expect(checked.errors.map((e) => [e.rule, e.spec])).toEqual([
      ['could not tell the kind: event "CHAT_STARTED" is not a bot event of spec 6.1', '2'],
    ]);
  });
});
