import { z } from 'zod';
import { SvcError } from '../../errors.js';
import type { PlatformCore } from '../core.js';
import type { PlatformResponse, PlatformService } from '../types.js';
import { answerControlError, controlOk, parseControlBody } from '../control-kit.js';
import { assignChat, rateChat, sendOfflineForm, updateVisitor } from './actions.js';
import { startCall } from './calls.js';
import { compact } from '../../hook-events/builders.js';

const target = {
  chatId: z.number().int().positive().optional(),
  customerId: z.string().min(1).optional(),
  channelId: z.string().min(1).optional(),
};
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
  chatId: z.number().int().positive().optional(),
  type: z.enum(['callback', 'incoming', 'outgoing']).optional(),
  /** scripted outcome: end (default) or error with a reason */
  outcome: z.enum(['end', 'error']).optional(),
  reason: z.string().min(1).optional(),
  talkMs: z.number().nonnegative().optional(),
  stepMs: z.number().nonnegative().optional(),
});
const rateBody = z.object({
  rate: z.enum(['positive', 'negative']).nullable().optional(),
  blacklisted: z.boolean().optional(),
});

/**
 * The control API's hook triggers (README "Control API"), beside /_sim/ of control-api.ts:
 * POST /_sim/chats/:id/assign, /_sim/chats/:id/rate, /_sim/visitor/update,
 * /_sim/visitor/offline-message and /_sim/calls. Other paths fall through.
 */
export function createHookControl(core: PlatformCore): PlatformService {
  return {
    name: 'hook-control',
    route(request) {
      if (request.method !== 'POST' || !request.path.startsWith('/_sim/')) return undefined;
      const parts = request.path.split('/').filter(Boolean).slice(1);
      const route = parts.map((p) => (/^\d+$/.test(p) ? ':id' : p)).join('/');
      const chatId = Number(parts[1]);
      const run = (): PlatformResponse | undefined => {
        switch (route) {
          case 'chats/:id/assign': {
            const { chat, assignTo } = assignChat(core, { chatId });
            return controlOk({ chatId: chat.id, assignTo });
          }
          case 'chats/:id/rate': {
            const chat = rateChat(core, { chatId }, compact(parseControlBody(rateBody, request)));
            return controlOk({ chatId: chat.id, hooks: chat.ext.hooks });
          }
          case 'visitor/update': {
            const body = compact(parseControlBody(visitorBody, request));
            const { chatId: id, customerId, channelId, ...update } = body;
            const found = updateVisitor(
              core,
              compact({ chatId: id, customerId, channelId }),
              update,
            );
            return controlOk({ chatId: found.chat.id, fields: found.fields });
          }
          case 'visitor/offline-message':
            return controlOk(
              sendOfflineForm(core, compact(parseControlBody(offlineBody, request))),
            );
          case 'calls': {
            const { outcome, reason, talkMs, ...rest } = compact(
              parseControlBody(callBody, request),
            );
            if (outcome === 'error' && reason === undefined) {
              throw new SvcError('SVC_E_CONTROL_BODY', 'input', 'outcome "error" needs a "reason"');
            }
            const { callId } = startCall(core, {
              ...rest,
              outcome:
                outcome === 'error'
                  ? { kind: 'error', reason: reason ?? '' }
                  : { kind: 'end', ...(talkMs === undefined ? {} : { talkMs }) },
            });
            return controlOk({ callId }, 202);
          }
          default:
            return undefined;
        }
      };
      try {
        return run();
      } catch (error) {
        return answerControlError(error);
      }
    },
  };
}
