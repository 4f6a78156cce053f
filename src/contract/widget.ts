/**
 * Interface C, the page script API `svc_api` (spec 4.5, 6.4, 7.3): arguments and results of
 * each method, and the callbacks' arguments.
 *
 * Arguments are an object keyed by the spec's parameter names; a method that takes one
 * object (open, setContactInfo, sendOfflineMessage) takes exactly that object.
 */
import { z } from 'zod';
import { httpUrl, lit, numberLike, once, oneOf, positiveInt, shape, str, tag } from './rules.js';

export {
  CALLBACK_FAIL_REASONS,
  CHAT_MODES,
  WIDGET_ARG_METHODS,
  WIDGET_CALLBACKS,
  WIDGET_CALLBACKS_WITH_ARGS,
  WIDGET_METHODS,
  WIDGET_RESULT_METHODS,
  WIDGET_STATES,
  type WidgetState,
} from './widget-protocol.js';
import {
  CALLBACK_FAIL_REASONS,
  CHAT_MODES,
  WIDGET_STATES,
  type WIDGET_ARG_METHODS,
  type WIDGET_CALLBACKS_WITH_ARGS,
  type WIDGET_METHODS,
  type WIDGET_RESULT_METHODS,
} from './widget-protocol.js';

/** The page-script schemas, built on first use. */
export const widgetSchemas = once(() => {
  const optionalString = () => str('4.5').optional();
  const ok = shape('4.5', { result: lit('ok', '4.5') });
  const failWithReason = shape('7.3', { result: lit('fail', '7.3'), reason: str('7.3') });
  const okOrFailReason = z.discriminatedUnion(
    'result',
    [ok, failWithReason],
    tag('7.3', { rule: 'must be "ok" or "fail"' }),
  );

  // spec 4.5: a setCustomData field: content (tags neutralized), title, link, key.
  const customDataFieldSchema = shape('4.5', {
    content: optionalString(),
    title: optionalString(),
    link: httpUrl('4.5').optional(),
    key: optionalString(),
  });

  const contactInfo = shape('4.5', {
    name: optionalString(),
    email: optionalString(),
    phone: optionalString(),
    description: optionalString(),
  });

  /** spec 4.5: the arguments of the methods that take any. */
  const widgetArgsSchemas = {
    // spec 4.5: start "call" opens the callback form with a phone field.
    open: shape('4.5', { start: lit('call', '4.5').optional() }),
    setContactInfo: contactInfo,
    setCustomData: shape('4.5', {
      fields: z.array(
        customDataFieldSchema,
        tag('4.5', { rule: 'must be an array (custom data must be an array)' }),
      ),
    }),
    setRules: shape('4.5', {
      rules: z.record(
        z.string(),
        z.unknown(),
        tag('4.5', { rule: 'must be an object of invitation rules' }),
      ),
    }),
    setUserToken: shape('4.5', { token: str('4.5') }),
    showProactiveInvitation: shape('4.5', {
      invitation_text: str('4.5'),
      department_id: numberLike('4.5', { integer: true }).optional(),
    }),
    startCall: shape('4.5', { phone: str('4.5') }),
    sendOfflineMessage: shape('4.5', {
      name: optionalString(),
      email: optionalString(),
      phone: optionalString(),
      description: optionalString(),
      message: str('4.5'),
    }),
  } as const satisfies Record<(typeof WIDGET_ARG_METHODS)[number], z.ZodType>;

  /** spec 4.5, 7.3: the results (or callback values) of the methods that return any. */
  const widgetResultSchemas = {
    // Assumed (spec: "return shape not shown"): the string online or offline.
    chatMode: oneOf(CHAT_MODES, '4.5'),
    // Assumed (spec: "fields not shown"): the contacts form fields.
    getContactInfo: contactInfo,
    // spec 4.5: callback(err, visitor_number); numbers are sequential from 1.
    getVisitorNumber: shape('4.5', {
      err: z
        .union([z.null(), z.string(), z.record(z.string(), z.unknown())], tag('4.5'))
        .optional(),
      visitor_number: positiveInt('4.5'),
    }),
    setCustomData: okOrFailReason,
    setUserToken: z.discriminatedUnion(
      'result',
      [
        shape('4.5', { result: lit('ok', '4.5'), token: str('4.5') }),
        // spec 4.5: on failure the token is the given value or false. The given value is
        // what the page passed, which failed for not being a string: any truthy value
        // (setUserToken(12345) answers token 12345)
        shape('4.5', {
          result: lit('fail', '4.5'),
          token: z.union(
            [
              z.boolean(),
              z.string(),
              z.number(),
              z.array(z.unknown()),
              z.record(z.string(), z.unknown()),
            ],
            tag('4.5', { rule: 'must be the given value or false' }),
          ),
        }),
      ],
      tag('4.5', { rule: 'must be "ok" or "fail"' }),
    ),
    startCall: okOrFailReason,
    isCallbackEnabled: z.discriminatedUnion(
      'result',
      [
        ok,
        shape('4.5', { result: lit('fail', '4.5'), reason: oneOf(CALLBACK_FAIL_REASONS, '4.5') }),
      ],
      tag('4.5', { rule: 'must be "ok" or "fail"' }),
    ),
    sendOfflineMessage: z.discriminatedUnion(
      'result',
      [ok, shape('7.3', { result: lit('fail', '7.3'), error: str('7.3') })],
      tag('4.5', { rule: 'must be "ok" or "fail"' }),
    ),
  } as const satisfies Record<(typeof WIDGET_RESULT_METHODS)[number], z.ZodType>;

  /** spec 6.4: arguments of the callbacks that receive any. */
  const widgetCallbackSchemas = {
    // spec 6.4: res with optional result ok|fail and, on fail, reason.
    svc_onCallEnd: shape('6.4', {
      res: shape('6.4', {
        result: oneOf(['ok', 'fail'], '6.4').optional(),
        reason: str('6.4').optional(),
      }),
    }),
    svc_onChangeState: shape('6.4', { state: oneOf(WIDGET_STATES, '3') }),
  } as const satisfies Record<(typeof WIDGET_CALLBACKS_WITH_ARGS)[number], z.ZodType>;
  return { customDataFieldSchema, widgetArgsSchemas, widgetResultSchemas, widgetCallbackSchemas };
});

type WidgetSchemas = ReturnType<typeof widgetSchemas>;
export type WidgetMethod = (typeof WIDGET_METHODS)[number];
export type CustomDataField = z.infer<WidgetSchemas['customDataFieldSchema']>;
export type SetUserTokenResult = z.infer<WidgetSchemas['widgetResultSchemas']['setUserToken']>;
