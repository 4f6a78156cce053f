import { z } from 'zod';
import { SvcError } from '../../errors.js';
import type { PlatformCore } from '../core.js';
import type { PlatformService } from '../types.js';
import {
  chatIdField,
  chatIdOfPath,
  controlOk,
  controlTarget,
  parseControlBody,
} from '../control-kit.js';
import { assignChat, rateChat, sendOfflineForm, updateVisitor } from './actions.js';
import { callTimingOf, setCallTiming, startCall } from './calls.js';
import { compact } from '../../hook-events/builders.js';

const target = controlTarget;
const text = z.string().optional();
const visitorBody = z.object({
  ...target,
  name: text,
  email: text,
  phone: text,
  description: text,
  userToken: text,
});
const offlineBody = z.object({
  name: text,
  email: text,
  phone: text,
  description: text,
  message: z.string().min(1),
  channelId: text,
  userToken: text,
});
const callBody = z.object({
  phone: z.string().min(1),
  chatId: chatIdField.optional(),
  type: z.enum(['callback', 'incoming', 'outgoing']).optional(),
  /** scripted outcome: end (default) or error with a reason */
  outcome: z.enum(['end', 'error']).optional(),
  reason: z.string().min(1).optional(),
  talkMs: z.number().nonnegative().optional(),
  stepMs: z.number().nonnegative().optional(),
});
const callTimingBody = z.object({
  stepMs: z.number().nonnegative().max(600_000).optional(),
  talkMs: z.number().nonnegative().max(3_600_000).optional(),
});
const rateBody = z.object({
  rate: z.enum(['positive', 'negative']).nullable().optional(),
  blacklisted: z.boolean().optional(),
});

/**
 * The control API's hook triggers (README "Control API"), beside /_sim/ of control-api.ts:
 * POST /_sim/chats/:id/assign, /_sim/chats/:id/rate, /_sim/visitor/update,
 * /_sim/visitor/offline-message, /_sim/calls and /_sim/calls/timing. Other paths fall through.
 */
export function createHookControl(core: PlatformCore): PlatformService {
  return {
    name: 'hook-control',
    routes: [
      {
        method: 'POST',
        path: '/_sim/chats/:id/assign',
        handler(_request, params) {
          const { chat, assignTo } = assignChat(core, { chatId: chatIdOfPath(params) });
          return controlOk({ chatId: chat.id, assignTo });
        },
      },
      {
        method: 'POST',
        path: '/_sim/chats/:id/rate',
        handler(request, params) {
          const chat = rateChat(
            core,
            { chatId: chatIdOfPath(params) },
            compact(parseControlBody(rateBody, request)),
          );
          return controlOk({ chatId: chat.id, hooks: chat.ext.hooks });
        },
      },
      {
        method: 'POST',
        path: '/_sim/visitor/update',
        handler(request) {
          const body = compact(parseControlBody(visitorBody, request));
          const { chatId: id, customerId, channelId, ...update } = body;
          const found = updateVisitor(core, compact({ chatId: id, customerId, channelId }), update);
          return controlOk({ chatId: found.chat.id, fields: found.fields });
        },
      },
      {
        method: 'POST',
        path: '/_sim/visitor/offline-message',
        handler: (request) =>
          controlOk(sendOfflineForm(core, compact(parseControlBody(offlineBody, request)))),
      },
      {
        method: 'POST',
        path: '/_sim/calls',
        handler(request) {
          const { outcome, reason, talkMs, ...rest } = compact(parseControlBody(callBody, request));
          if (outcome === 'error' && reason === undefined) {
            throw new SvcError('SVC_E_CONTROL_BODY', 'outcome "error" needs a "reason"');
          }
          const { callId } = startCall(core, {
            ...rest,
            outcome:
              outcome === 'error'
                ? { kind: 'error', reason: reason ?? '' }
                : { kind: 'end', ...(talkMs === undefined ? {} : { talkMs }) },
          });
          return controlOk({ callId }, 202);
        },
      },
      {
        // the pace of the calls started from now on, the page's startCall included (spec 2.6
        // shows the statuses, not their timing): conform platform's page case shortens them
        method: 'POST',
        path: '/_sim/calls/timing',
        handler(request) {
          const before = setCallTiming(core, compact(parseControlBody(callTimingBody, request)));
          return controlOk({ ...callTimingOf(core), before });
        },
      },
    ],
  };
}
