import type { Conversation } from './format.js';

/** A side a fixture's setup makes the embedded role play differently, and the field that does. */
export interface SetupForPeer {
  role: 'integrator' | 'hooks' | 'bot';
  field: 'faults' | 'replies';
}

/**
 * The sides swapped for a real peer whose embedded role the fixture's setup changes: faults
 * (redelivery, a slow reply) and set hook replies (a chat_accepted result FAILURE) are what
 * the embedded listen, hook-target or bot-sim does, not what the real peer does.
 * @example setupForRealPeers({ hooks: { replies: {...} } }, { hookUrl }) // [{ role: 'hooks', field: 'replies' }]
 */
export function setupForRealPeers(
  setup: NonNullable<Conversation['setup']>,
  urls: {
    integratorUrl?: string | undefined;
    hookUrl?: string | undefined;
    botUrl?: string | undefined;
  },
): SetupForPeer[] {
  const found: SetupForPeer[] = [];
  if (urls.integratorUrl !== undefined && setup.integrator?.faults !== undefined)
    found.push({ role: 'integrator', field: 'faults' });
  if (urls.hookUrl !== undefined && setup.hooks?.faults !== undefined)
    found.push({ role: 'hooks', field: 'faults' });
  else if (urls.hookUrl !== undefined && setup.hooks?.replies !== undefined)
    found.push({ role: 'hooks', field: 'replies' });
  if (urls.botUrl !== undefined && setup.bot?.faults !== undefined)
    found.push({ role: 'bot', field: 'faults' });
  return found;
}
