import { describe, expect, it } from 'vitest';
import { minimalHookReply, validateHookReply } from '../../../src/contract/hook-reply.js';
import { HOOK_EVENTS } from '../../../src/contract/hooks.js';
import { validate } from '../../../src/contract/validate.js';

describe('the smallest hook reply that conforms', () => {
  it('is read from each reply schema, and conforms; call_event takes any object', () => {
    for (const event of HOOK_EVENTS) {
      const reply = minimalHookReply(event);
      if (event === 'call_event') expect(reply).toBeUndefined();
      else {
        expect(reply, event).toEqual({ result: 'ok' });
        expect(validate(`hook.${event}.reply`, reply).ok).toBe(true);
      }
    }
  });

  it('is named by the issue of a reply without result, and by no other issue', () => {
    const verdict = validateHookReply('chat_accepted', { ok: true });
    expect(verdict.ok).toBe(false);
    expect(verdict.errors).toEqual([
      {
        path: 'result',
        code: 'required',
        rule: 'required; a minimal valid reply is {"result":"ok"}',
        spec: '6.2',
        severity: 'error',
      },
    ]);
    // a wrong result, or a broken field beside it, keeps its own rule
    const wrong = validateHookReply('chat_finished', { result: 'yes' });
    expect(wrong.errors.map((i) => i.rule).join()).not.toContain('minimal');
    const nested = validateHookReply('chat_accepted', { result: 'ok', contact_info: {} });
    expect(nested.errors).toMatchObject([{ path: 'contact_info.name', rule: 'required' }]);
    expect(validateHookReply('call_event', { ok: true }).ok).toBe(true);
  });
  it('warns when chat_accepted carries data for the agent under a result other than ok', () => {
    const shouted = validateHookReply('chat_accepted', {
      result: 'OK',
      custom_data: [{ key: 'Orders', content: '3' }],
      crm_link: 'https://crm.example.test/1',
    });
    // spec 6.2 lets the result be any string: the reply conforms, and its data is lost
    expect(shouted.ok).toBe(true);
    expect(shouted.warnings).toEqual([
      {
        path: 'result',
        code: 'data_not_shown',
        rule: 'is "OK", not "ok": the agent is shown none of custom_data, crm_link',
        spec: '6.2',
        severity: 'warning',
      },
    ]);
    // no data, or ok: nothing to say
    expect(validateHookReply('chat_accepted', { result: 'FAILURE' }).warnings).toEqual([]);
    expect(
      validateHookReply('chat_accepted', { result: 'ok', crm_link: 'https://crm.example.test/1' })
        .warnings,
    ).toEqual([]);
  });
});
