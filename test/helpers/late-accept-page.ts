import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationInput } from '../../src/conversation/format.js';
import { repoRoot } from './run-cli.js';

/** The bundled page conversation: the page-script double's callbacks in the pushes' order. */
export const PAGE_FIXTURE = join(repoRoot, 'fixtures/conversations/widget-callback-order.json');

/**
 * The same conversation with a planted page bug (`setup.page.hold`): the page's event handling
 * keeps the agent's accept notice back until the call ended, so svc_onCallEnd runs before
 * svc_onAccept, as the bad page of test/integration/callback-order.test.ts does. The
 * expectations that wait on svc_onAccept before the call are left out: only the invariant can
 * see what is wrong.
 */
export function lateAcceptPage(): ConversationInput {
  const fixture = JSON.parse(readFileSync(PAGE_FIXTURE, 'utf8')) as ConversationInput & {
    $schema?: string;
  };
  delete fixture.$schema;
  return {
    ...fixture,
    name: 'a page that runs svc_onAccept after the call it preceded ended',
    setup: {
      ...fixture.setup,
      page: { visitor: 'visitor-1', hold: { event: 'agent_accepted', until: 'call_status:end' } },
    },
    steps: fixture.steps.filter(
      (s) => !('expect' in s) || (s.expect.page !== 'svc_onAccept' && s.expect.order === undefined),
    ),
  };
}
