/**
 * What every serving role's flags share (`listen`, `hook-target`, `bot-sim`): the fault plan
 * from `--fault-plan` plus the flags on top of it, and the `--record` journal.
 */
import { resolve } from 'node:path';
import { SvcError, systemReason } from '../errors.js';
import { loadFaultPlan, type Fault, type FaultPlan } from '../faults/index.js';
import { createJournal, type Journal } from '../journal/index.js';
import type { CliContext } from './context.js';

export interface FaultFlags {
  faultPlan?: string | undefined;
  failFirst?: number | undefined;
  delay?: number | undefined;
  fault?: Fault | undefined;
  faultRate?: number | undefined;
  seed?: number | undefined;
}

/**
 * The plan file first, then each flag given on top of it.
 * @example await buildFaultPlan(ctx, { failFirst: 2 }) // { failFirst: 2 }
 */
export async function buildFaultPlan(
  ctx: Pick<CliContext, 'cwd'>,
  o: FaultFlags,
): Promise<FaultPlan> {
  const plan: FaultPlan = o.faultPlan ? await loadFaultPlan(resolve(ctx.cwd, o.faultPlan)) : {};
  if (o.failFirst !== undefined) plan.failFirst = o.failFirst;
  if (o.delay !== undefined) plan.delayMs = o.delay;
  if (o.fault !== undefined) plan.fault = o.fault;
  if (o.faultRate !== undefined) plan.rate = o.faultRate;
  if (o.seed !== undefined) plan.seed = o.seed;
  if (plan.rate !== undefined && plan.fault === undefined) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      'input',
      'Could not use --fault-rate: it says how often --fault applies, and no --fault is given.',
      'Example: --fault status:503 --fault-rate 0.2 --seed 7',
    );
  }
  return plan;
}

/** The role's journal: in memory, and appended to `--record` when given. */
export function openRecordJournal(
  ctx: Pick<CliContext, 'cwd'>,
  record: string | undefined,
  showSecrets: boolean,
): Journal {
  if (record === undefined) return createJournal({ keep: 1000, showSecrets });
  try {
    return createJournal({ file: resolve(ctx.cwd, record), keep: 1000, showSecrets });
  } catch (error) {
    throw new SvcError(
      'SVC_E_RECORD',
      'input',
      `Could not open the record file ${record}: ${systemReason(error)}.`,
    );
  }
}
