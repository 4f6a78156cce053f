import { z } from 'zod';
import { issueLine } from '../../issue-words.js';
import type { WidgetOutboundEvent } from '../../contract/widget-protocol.js';
import { WIDGET_CALLBACKS as CALLBACK_NAMES } from '../../contract/widget-protocol.js';

/**
 * The page script's outbound events as the widget channel accepts them (see
 * src/widget/transport.ts). The double has already applied spec 4.5's argument checks; the
 * platform checks the shape again because anything can POST here.
 */
const visitorId = z.string().min(1).max(200);
const contact = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  description: z.string().optional(),
});
// spec 6.2 page: the page the visitor writes from (location.href, document.title)
const page = z
  .object({ url: z.string().min(1).max(2000), title: z.string().max(1000).optional() })
  .optional();
const field = z.object({
  content: z.string().optional(),
  title: z.string().optional(),
  link: z.string().optional(),
  key: z.string().optional(),
});

export const outboundEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('visitor_number'), visitorId }),
  z.object({
    type: z.literal('visitor_message'),
    visitorId,
    text: z.string().min(1),
    first: z.boolean(),
    page,
  }),
  z.object({
    type: z.literal('contact_info'),
    visitorId,
    source: z.enum(['api', 'form']),
    contact,
  }),
  z.object({ type: z.literal('custom_data'), visitorId, fields: z.array(field) }),
  z.object({ type: z.literal('user_token'), visitorId, token: z.string().min(1) }),
  z.object({ type: z.literal('rules'), visitorId, rules: z.record(z.string(), z.json()) }),
  z.object({
    type: z.literal('invitation'),
    visitorId,
    text: z.string(),
    departmentId: z.number().optional(),
  }),
  z.object({
    type: z.literal('offline_message'),
    visitorId,
    message: contact.extend({ message: z.string() }),
    page,
  }),
  z.object({ type: z.literal('start_call'), visitorId, phone: z.string().min(1), page }),
  // the public JS API's setClientAttributes (the page's docs profile)
  z.object({
    type: z.literal('client_attributes'),
    visitorId,
    attributes: z.record(z.string(), z.json()),
  }),
  // spec 6.4: a page callback ran for the pushed event with this stream id
  z.object({
    type: z.literal('callback'),
    visitorId,
    name: z.enum(CALLBACK_NAMES),
    eventId: z.number().int().min(1),
    event: z.string().max(100),
    threw: z.string().max(500).optional(),
  }),
]);

/**
 * Parses a POSTed event; the error names the event, the first problem with its path, and
 * where the shape is written down (anything can POST here, a hand-written page script too).
 * @example parseOutboundEvent({ type: 'visitor_message', visitorId: 'v-1', text: 'Hi' }) // error: 'Could not take the visitor_message event: first: ...'
 */
export function parseOutboundEvent(
  json: unknown,
): { ok: true; event: WidgetOutboundEvent } | { ok: false; error: string } {
  const parsed = outboundEventSchema.safeParse(json);
  if (parsed.success) return { ok: true, event: parsed.data as WidgetOutboundEvent };
  const issue = parsed.error.issues[0];
  const type = (json as { type?: unknown } | null)?.type;
  const what = typeof type === 'string' && type.length <= 40 ? `the ${type} event` : 'the event';
  return {
    ok: false,
    error:
      `Could not take ${what}: ${issue ? issueLine(issue, '(body)') : 'invalid event'}. ` +
      'Send the fields the WidgetOutboundEvent type of svc-cli/widget lists, as createHttpTransport does.',
  };
}
