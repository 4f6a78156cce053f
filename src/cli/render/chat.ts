/** What `svc-cli chat` prints: its banner, each send's outcome, each agent message. */
import type { ChalkInstance } from 'chalk';

export interface ChatReadyEvent {
  type: 'chat-ready';
  channelUrl: string;
  /** the embedded agent-message endpoint (give it to the platform as the integrator URL) */
  integratorUrl: string;
  senderId: string;
  /** set when the embedded simulator runs */
  simulator?: { url: string; controlUrl: string };
}

export interface ChatSentEvent {
  type: 'chat-sent';
  kind: string;
  status: number;
  latencyMs: number;
  ok: boolean;
  /** why it was not accepted, or the contract warnings */
  notes: string[];
}

export interface ChatAgentEvent {
  type: 'chat-agent';
  agent: string;
  recipient: string;
  message: Record<string, unknown>;
}

/** The banner; each line within 80 columns for local URLs (the values go under the labels). */
export function formatChatReady(e: ChatReadyEvent, c: ChalkInstance): string {
  const under = ' '.repeat(18);
  const lines = e.simulator
    ? [
        `${c.bold('svc chat')} with the embedded simulator at ${c.cyan(e.simulator.url)}`,
        `  channel URL     ${c.cyan(e.channelUrl)}`,
        `  agent side      /agent <text> here, or {"text":"..."} to`,
        `${under}${c.cyan(`POST ${e.simulator.controlUrl}/agent/message`)}`,
        `  agent messages  -> ${c.cyan(e.integratorUrl)}`,
        `${under}${c.dim('(embedded listen, wired to the simulator)')}`,
      ]
    : [
        `${c.bold('svc chat')} to ${c.cyan(e.channelUrl)}`,
        `  agent messages  give the platform this integrator URL:`,
        `${under}${c.cyan(e.integratorUrl)}`,
        `${under}${c.dim('(or it plus any path: the platform adds /<channel id>)')}`,
      ];
  const you = `You are ${e.senderId}.`;
  const how = 'Type a message; /help lists commands; /quit or Ctrl-D leaves.';
  lines.push(c.dim(you.length + 1 + how.length <= 80 ? `${you} ${how}` : `${you}\n${how}`));
  return lines.join('\n');
}

export function formatChatSent(e: ChatSentEvent, c: ChalkInstance): string {
  const head = e.ok
    ? c.dim(
        `  ✓ ${e.status} ${e.kind.replace('channel.customer.', '')} ${Math.round(e.latencyMs)}ms`,
      )
    : `  ${c.red('✗')} ${e.status} ${e.kind.replace('channel.customer.', '')}`;
  return [head, ...e.notes.map((n) => `    ${e.ok ? c.yellow('!') : c.red('•')} ${n}`)].join('\n');
}

/** `Anna: Hello`, `Anna is typing…`, `Anna: [photo] https://... (cat.jpg)` */
export function formatChatAgent(e: ChatAgentEvent, c: ChalkInstance): string {
  const who = c.blue.bold(e.agent);
  const m = e.message;
  const str = (v: unknown): string =>
    typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  switch (m.type) {
    case 'typein':
      return c.dim(`${e.agent} is typing…`);
    case 'typeout':
      return c.dim(`${e.agent} stopped typing`);
    case 'text':
      return `${who}: ${str(m.text)}`;
    case 'location':
      return `${who}: ${c.magenta('[location]')} ${str(m.latitude)}, ${str(m.longitude)}`;
    default:
      return `${who}: ${c.magenta(`[${str(m.type)}]`)} ${str(m.file)}${m.file_name ? c.dim(` (${str(m.file_name)})`) : ''}${m.text ? ` ${str(m.text)}` : ''}`;
  }
}
