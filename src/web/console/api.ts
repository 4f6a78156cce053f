/** The control API calls the console makes (README "Control API"); same origin as the page. */
export interface ChatView {
  id: number;
  channelId: string;
  mode: 'bot' | 'queue' | 'agent' | 'closed';
  agentId?: number;
  lines: Array<{
    timestamp: number;
    type: string;
    text?: string;
    kind: string;
    agentId?: number;
    deliveryId?: string;
    delivery?: { result: string; attempts: number; agentNotice?: string };
  }>;
  openedAt: number;
  lastActivityMs: number;
  ext: Record<string, unknown>;
  customer?: Record<string, unknown> & { senderId: string; visitorNumber: number };
}

export interface JournalEntry {
  seq: number;
  at: string;
  protocolMs: number;
  iface: string;
  direction: 'in' | 'out';
  kind?: string;
  attempt?: number;
  request: { method: string; url: string; headers?: Record<string, string>; body?: string };
  response?: { status: number; body?: string };
  failure?: { reason: string; message: string };
  verdict?: { ok: boolean; errors: string[]; warnings: string[] };
  notes?: string[];
}

/** Calls one endpoint; a non-2xx answer throws with the API's error message. */
export async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json: unknown = text === '' ? undefined : JSON.parse(text);
  if (!response.ok) {
    const error = (json as { error?: { message?: string } } | undefined)?.error;
    throw new Error(error?.message ?? `HTTP ${response.status}`);
  }
  return json as T;
}

export const api = {
  state: () => call<{ agentsOnline: boolean; baseUrl: string }>('GET', '/_sim/state'),
  chats: () => call<{ chats: ChatView[] }>('GET', '/_sim/chats'),
  chat: (id: number) => call<ChatView>('GET', `/_sim/chats/${id}`),
  say: (chatId: number, text: string) =>
    call('POST', '/_sim/agent/message', { chatId, text, wait: false }),
  typing: (chatId: number, typing: boolean) =>
    call('POST', '/_sim/agent/typing', { chatId, typing }),
  close: (chatId: number) => call('POST', `/_sim/chats/${chatId}/close`),
  assign: (chatId: number) => call('POST', `/_sim/chats/${chatId}/assign`),
  agents: (online: boolean) => call('POST', '/_sim/agents', { online }),
  journal: () => call<{ count: number; entries: JournalEntry[] }>('GET', '/_sim/journal'),
  resend: (seq: number) =>
    call<{ status?: number; body?: string; failure?: { message: string } }>(
      'POST',
      `/_sim/journal/${seq}/resend`,
    ),
};
