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
    /** a media line (spec 2.4): file link, name and size, or coordinates */
    media?: {
      file?: string;
      file_name?: string;
      file_size?: number;
      latitude?: number;
      longitude?: number;
    };
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
  /** the journal's run, the chat, the recorded cause and the time it took (src/trace reads them) */
  run?: string;
  chat?: number;
  cause?: number;
  durationMs?: number;
}

const TOKEN_KEY = 'svc-control-token';
let token: string | null | undefined;

/**
 * The control token a simulator reachable beyond this machine wants (docs/SECURITY.md): the
 * banner's console URL carries it after `#token=` (a fragment never reaches a server); the tab
 * keeps it and the address bar drops it.
 */
export function controlToken(): string | null {
  if (token !== undefined) return token;
  const given = /(?:^#|&)token=([^&]*)/.exec(location.hash)?.[1];
  if (given !== undefined) {
    token = decodeURIComponent(given);
    sessionStorage.setItem(TOKEN_KEY, token);
    history.replaceState(null, '', `${location.pathname}${location.search}`);
  } else {
    token = sessionStorage.getItem(TOKEN_KEY);
  }
  return token;
}

/** The event stream's URL: EventSource sends no headers, so the token goes in the query. */
export function eventsUrl(query: string): string {
  const t = controlToken();
  return `/_sim/events?${query}${t === null ? '' : `&token=${encodeURIComponent(t)}`}`;
}

/**
 * A control API call that failed: `unreachable` when no answer came (the simulator stopped,
 * the network dropped the request), `refused` when the simulator answered with an error
 * (`message` is its answer). The console words each differently.
 */
export class ControlApiError extends Error {
  constructor(
    readonly code: 'unreachable' | 'refused',
    message: string,
  ) {
    super(message);
    this.name = 'ControlApiError';
  }
}

/**
 * Calls one endpoint; a non-2xx answer throws a `refused` ControlApiError with the API's error
 * message, no answer an `unreachable` one. A POST always sends JSON (`{}` when it has nothing
 * to say): the simulator refuses any other state-changing request, as a page of another
 * origin could send it without asking.
 */
export async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const t = controlToken();
  const headers: Record<string, string> = t === null ? {} : { authorization: `Bearer ${t}` };
  if (method === 'POST') headers['content-type'] = 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, {
      method,
      headers,
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
    });
    text = await response.text();
  } catch (error) {
    throw new ControlApiError(
      'unreachable',
      error instanceof Error ? error.message : String(error),
    );
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined; // not the simulator's JSON (a proxy's error page): the status tells
  }
  if (!response.ok) {
    const error = (json as { error?: { message?: string; hint?: string } } | undefined)?.error;
    const said = error?.message ?? `HTTP ${response.status}`;
    // the simulator's hint, what to do about it, follows its message
    throw new ControlApiError('refused', error?.hint ? `${said} ${error.hint}` : said);
  }
  return json as T;
}

export const api = {
  state: () =>
    call<{ agentsOnline: boolean; baseUrl: string; channels?: { url: string }[] }>(
      'GET',
      '/_sim/state',
    ),
  chats: () => call<{ chats: ChatView[] }>('GET', '/_sim/chats'),
  /** what the command serving the console adds (`widget`: its demo page); {} from an older one */
  context: (): Promise<{ pageUrl?: string }> =>
    call<{ pageUrl?: string } | undefined>('GET', '/_sim/console/context.json').then(
      (context) => context ?? {},
      () => ({}),
    ),
  chat: (id: number) => call<ChatView>('GET', `/_sim/chats/${id}`),
  say: (chatId: number, text: string) =>
    call('POST', '/_sim/agent/message', { chatId, text, wait: false }),
  typing: (chatId: number, typing: boolean) =>
    call('POST', '/_sim/agent/typing', { chatId, typing }),
  close: (chatId: number) => call('POST', `/_sim/chats/${chatId}/close`),
  assign: (chatId: number) => call('POST', `/_sim/chats/${chatId}/assign`),
  agents: (online: boolean) => call('POST', '/_sim/agents', { online }),
  journal: () =>
    call<{ count: number; recording?: RecordingState; entries: JournalEntry[] }>(
      'GET',
      '/_sim/journal',
    ),
  /** the exchanges after `since` (a seq), oldest first: the Timeline tab follows them */
  journalSince: (since: number) =>
    call<{ count: number; entries: JournalEntry[] }>(
      'GET',
      `/_sim/journal?since=${since}&limit=10000`,
    ),
  resend: (seq: number) =>
    call<{ status?: number; body?: string; failure?: { message: string } }>(
      'POST',
      `/_sim/journal/${seq}/resend`,
    ),
};

/** The --record file's state, as GET /_sim/journal gives it. */
export interface RecordingState {
  state: 'off' | 'recording' | 'stopped';
  file?: string;
  sync: string;
  written: number;
  notWritten: number;
  failure?: { code: string; reason: string };
}
