import { z } from 'zod';
import { SvcError } from '../errors.js';
import { readInputFile } from '../io/input-file.js';
import { FAULT_SYNTAX, describeFault, parseFault, type Fault } from './fault.js';
import type { FaultPlan } from './plan.js';
import { issueLine } from '../issue-words.js';

/** A fault written as flag syntax ("status:503") in a plan file or fixture. */
const faultSchema = z.string().transform((text, ctx): Fault => {
  const parsed = parseFault(text);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.fault;
});

/**
 * A plan's fields (FaultPlan), its faults written as `fault` reads them: the plan file, a
 * fixture's `setup.<role>.faults` and the library API share them.
 */
export function faultPlanFields<F extends z.ZodType>(fault: F) {
  return {
    delayMs: z.number().nonnegative().optional(),
    failFirst: z.number().int().nonnegative().optional(),
    failWith: fault.optional(),
    fault: fault.optional(),
    rate: z.number().min(0).max(1).optional(),
    seed: z.number().int().optional(),
    sequence: z.array(fault).optional(),
  };
}

/**
 * The fault-plan file (`--fault-plan plan.json`), versioned like every on-disk format
 * (every on-disk format is versioned, so an old file fails loudly).
 */
export const faultPlanSchema = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(1),
    ...faultPlanFields(faultSchema),
  })
  .strict()
  .describe(`svc-cli fault plan. Faults use the --fault syntax: ${FAULT_SYNTAX}`);

/** A plan's fields that are set (a parsed plan has its unset ones as undefined). */
const setFieldsOf = (plan: Record<string, unknown>): FaultPlan =>
  Object.fromEntries(Object.entries(plan).filter(([, v]) => v !== undefined));

/**
 * A fault as an object, as the library API types it (`{ kind: 'status', status: 503 }`).
 */
const faultObjectSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({ kind: z.literal('status'), status: z.number().int().min(100).max(599) }),
  z.strictObject({ kind: z.literal('reset') }),
  z.strictObject({ kind: z.literal('hang') }),
  z.strictObject({ kind: z.literal('bad-json') }),
  z.strictObject({ kind: z.literal('error'), code: z.string(), message: z.string() }),
  z.strictObject({ kind: z.literal('slow-body'), durationMs: z.number().nonnegative() }),
]);

/** The fault kinds, read from the schema above (no second list to keep in step). */
const FAULT_KINDS: readonly string[] = faultObjectSchema.options.map((o) => o.shape.kind.value);

/**
 * A fault where code gives it (the library API, `PUT /_sim/faults`): either form, so a plan
 * copied from a plan file works in code and one written in code works over the control API.
 */
const faultInputSchema = z.unknown().transform((value, ctx): Fault => {
  if (typeof value === 'string') {
    const parsed = parseFault(value);
    if (parsed.ok) return parsed.fault;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  const parsed = faultObjectSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    ctx.addIssue({
      code: 'custom',
      message: `a fault is a string in the --fault syntax ("status:503") or an object ({ kind: 'status', status: 503 }), not ${JSON.stringify(value) ?? String(value)}`,
    });
  else if (typeof kind === 'string' && !FAULT_KINDS.includes(kind))
    ctx.addIssue({
      code: 'custom',
      message: `no fault kind ${JSON.stringify(kind)} (${FAULT_KINDS.join(', ')})`,
      path: ['kind'],
    });
  else
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

/**
 * A fault plan sent to the control API (`PUT /_sim/faults`): a plan file's fields, its
 * `version` optional; parsed, the plan its fields set.
 * @example faultPlanBodySchema.parse({ fault: 'status:503', rate: 0.5 }) // { fault: { kind: 'status', status: 503 }, rate: 0.5 }
 */
export const faultPlanBodySchema = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(1).optional(),
    ...faultPlanFields(faultInputSchema),
  })
  .strict()
  .transform(({ $schema: _s, version: _v, ...plan }) => setFieldsOf(plan));

/** A plan as a plan file writes it: its faults in the --fault syntax. */
export interface FaultPlanText extends Omit<FaultPlan, 'failWith' | 'fault' | 'sequence'> {
  failWith?: string;
  fault?: string;
  sequence?: string[];
}

/**
 * A plan with its faults in the --fault syntax, as a plan file or `PUT /_sim/faults` takes it
 * back (the control API's answers).
 * @example faultPlanText({ fault: { kind: 'status', status: 503 }, rate: 0.5 }) // { rate: 0.5, fault: 'status:503' }
 */
export function faultPlanText(plan: FaultPlan): FaultPlanText {
  const { failWith, fault, sequence, ...rest } = plan;
  const text: FaultPlanText = { ...rest };
  if (failWith) text.failWith = describeFault(failWith);
  if (fault) text.fault = describeFault(fault);
  if (sequence) text.sequence = sequence.map(describeFault);
  return text;
}

/** A plan's problems, each as `path: message`. */
const issueList = (error: z.ZodError): string => error.issues.map((i) => issueLine(i)).join('; ');

/**
 * Reads and checks a fault-plan file; every problem is an input error naming the file as given
 * (a relative path is read from `cwd`).
 */
export async function loadFaultPlan(file: string, cwd?: string): Promise<FaultPlan> {
  const text = await readInputFile({ kind: 'faultPlan', given: file, cwd });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SvcError(
      'SVC_E_FAULT_PLAN',
      `Could not parse the fault plan ${file}: ${(error as Error).message}.`,
    );
  }
  const parsed = faultPlanSchema.safeParse(json);
  if (!parsed.success) {
    throw new SvcError(
      'SVC_E_FAULT_PLAN',
      `Could not use the fault plan ${file}: ${issueList(parsed.error)}.`,
      'A plan looks like {"version":1,"failFirst":2,"sequence":["status:503","reset"]}.',
    );
  }
  const { $schema: _s, version: _v, ...plan } = parsed.data;
  return setFieldsOf(plan);
}

const faultPlanInputSchema = z.strictObject(faultPlanFields(faultInputSchema));

/**
 * A fault plan given in code, checked where it comes in: a typo (`{ kind: 'bogus' }`) is an
 * input error naming the field, not a 500 with a stack on the first request.
 * @example checkFaultPlan({ failFirst: 2, failWith: { kind: 'status', status: 503 } }, 'setFaults')
 */
export function checkFaultPlan(plan: unknown, where: string): FaultPlan {
  const parsed = faultPlanInputSchema.safeParse(plan);
  if (parsed.success) return setFieldsOf(parsed.data);
  throw new SvcError(
    'SVC_E_FAULT_PLAN',
    `Could not use the fault plan given to ${where}: ${issueList(parsed.error)}.`,
    `A plan looks like { failFirst: 2, failWith: 'status:503' } or { failFirst: 2, failWith: { kind: 'status', status: 503 } }; fault kinds: ${FAULT_KINDS.join(', ')}.`,
  );
}
