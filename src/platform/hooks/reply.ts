import { validateHookReply } from '../../contract/hook-reply.js';
import { appendChatLine } from '../model.js';
import type { ChatAcceptedReply } from '../../contract/hooks.js';
import type { PlatformCore } from '../core.js';
import type { DeliveryResult } from '../delivery.js';
import { hookDataOf } from './actions.js';
import { compact, type HookEventName } from '../../hook-events/builders.js';

export interface HookReplyInput {
  name: HookEventName;
  deliveryId: string;
  chatId?: number;
  result: DeliveryResult;
}

/**
 * Checks a hook reply against `hook.<event>.reply` (spec 6.2) and uses it: a conforming
 * chat_accepted reply with result "ok" puts custom_data, contact_info, enable_assign and
 * crm_link before the agent; any other result means the data is not shown.
 * @example await deliver(...).then((result) => useHookReply(core, { name, deliveryId, result }));
 */
export function useHookReply(core: PlatformCore, input: HookReplyInput): void {
  const { name, deliveryId, result } = input;
  const now = core.clock.now();
  const chatRef = input.chatId === undefined ? {} : { chatId: input.chatId };
  if (result.result !== 'delivered') {
    core.emit({
      type: 'hook-reply',
      deliveryId,
      event: name,
      ...chatRef,
      verdict: 'no-reply',
      errors: [],
      warnings: [],
      protocolMs: now,
    });
    if (name === 'chat_accepted' && input.chatId !== undefined) {
      core.emit({
        type: 'crm-data',
        chatId: input.chatId,
        shown: false,
        reason: result.agentNotice ?? 'no reply',
        protocolMs: now,
      });
    }
    return;
  }
  const kind = `hook.${name}.reply`;
  // spec 6.2: call_event's reply is not shown, so an empty one (no JSON) conforms
  const empty = name === 'call_event' && result.reply === undefined;
  // a missing result says what the smallest conforming reply is
  const verdict = empty
    ? { ok: true, errors: [], warnings: [] }
    : validateHookReply(name, result.reply);
  const resultValue = (result.reply as { result?: unknown } | null)?.result;
  core.emit({
    type: 'hook-reply',
    deliveryId,
    event: name,
    ...chatRef,
    verdict: verdict.ok ? 'ok' : 'violation',
    ...(typeof resultValue === 'string' ? { result: resultValue } : {}),
    reply: result.reply,
    errors: verdict.errors,
    warnings: verdict.warnings,
    protocolMs: now,
  });
  if (!verdict.ok) {
    core.emit({
      type: 'violation',
      source: 'hook reply',
      kind,
      issues: verdict.errors,
      outcome: 'ignored',
      protocolMs: now,
    });
  }
  if (name !== 'chat_accepted' || input.chatId === undefined) return;
  const chat = core.state.chats.get(input.chatId);
  if (!chat) return;
  if (!verdict.ok || resultValue !== 'ok') {
    // spec 6.2: when result is not ok the data is not passed to the agent
    core.emit({
      type: 'crm-data',
      chatId: chat.id,
      shown: false,
      reason: verdict.ok
        ? `result is ${JSON.stringify(resultValue)}, not "ok" (spec 6.2)`
        : 'the reply breaks the contract',
      protocolMs: now,
    });
    return;
  }
  const reply = result.reply as ChatAcceptedReply;
  const data = hookDataOf(chat);
  // spec 6.2: custom_data and crm_link are shown to the agent; two mutants ignore them
  if (reply.custom_data && core.mutant !== 'ignore-custom-data')
    data.customData = reply.custom_data.map((f) => compact(f));
  if (reply.contact_info) data.contactInfo = compact(reply.contact_info);
  if (reply.enable_assign !== undefined) data.enableAssign = reply.enable_assign;
  if (reply.crm_link !== undefined && core.mutant !== 'ignore-crm-link')
    data.crmLink = reply.crm_link;
  if (reply.page) data.page = compact(reply.page);
  if (reply.contact_info) {
    // spec 6.2: contact_info is shown as if typed by the visitor and kept in the archive
    const customer = core.state.customers.get(chat.customerKey);
    const info = reply.contact_info;
    if (customer) {
      customer.name = info.name;
      if (info.phone !== undefined) customer.phone = info.phone;
      if (info.email !== undefined) customer.email = info.email;
    }
    appendChatLine(chat, {
      timestamp: core.clock.epochSeconds(),
      type: 'visitor',
      kind: 'hook.contact_info',
      text: [info.name, info.phone, info.email].filter(Boolean).join(', '),
    });
  }
  core.emit({
    type: 'crm-data',
    chatId: chat.id,
    shown: true,
    ...(data.customData ? { customData: data.customData } : {}),
    ...(data.contactInfo ? { contactInfo: data.contactInfo } : {}),
    ...compact({ enableAssign: data.enableAssign, crmLink: data.crmLink }),
    protocolMs: now,
  });
}
