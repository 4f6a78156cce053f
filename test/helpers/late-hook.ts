/**
 * A conversation with a planted cross-interface bug, for the invariant tests: the embedded
 * platform still assigns a chat an agent closed (POST /_sim/chats/:id/assign), so
 * chat_assigned reaches the hook receiver after chat_finished, which no single expectation
 * names and the hook-after-finish invariant catches.
 */
export const LATE_HOOK = {
  version: 1,
  name: 'a hook after chat_finished',
  setup: { hooks: {} },
  steps: [
    { customer: { text: 'Hello', sender: { id: 'c-late' } } },
    { name: 'answer', agent: { text: 'Hi.' } },
    { close: {} },
    { control: { method: 'POST', path: '/_sim/chats/${answer.chatId}/assign', body: {} } },
  ],
};
