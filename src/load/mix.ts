/**
 * `--mix`: which payloads a load run sends and in what share, either as kinds with weights
 * (`text=80,photo=10,typing=10`) or as the customer steps of conversation fixtures
 * (`--mix fixtures/conversations`), each step a template drawn as often as the fixtures use it.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inputError } from '../errors.js';
import { loadConversations } from '../conversation/load.js';
import { FILE_MEDIA_TYPES } from '../roles/integrator/kinds.js';
import type { MixEntry } from './targets.js';

export const MIX_KINDS: readonly string[] = ['text', 'typing', ...FILE_MEDIA_TYPES, 'location'];

/** The default: mostly text, some typing notices and media, as a chat carries them. */
export const DEFAULT_MIX: readonly MixEntry[] = [
  { kind: 'text', weight: 8 },
  { kind: 'typing', weight: 1 },
  { kind: 'photo', weight: 1 },
];

/**
 * Kinds with weights.
 * @example parseMixKinds('text=80,photo=20') // [{ kind: 'text', weight: 80 }, { kind: 'photo', weight: 20 }]
 */
export function parseMixKinds(text: string): MixEntry[] {
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part): MixEntry => {
      const [kind = '', weightText = '1'] = part.split('=');
      const weight = Number(weightText);
      if (!MIX_KINDS.includes(kind)) {
        throw inputError(
          'SVC_E_LOAD_MIX',
          `Could not read --mix "${text}": "${kind}" is not a message kind.`,
          `Kinds: ${MIX_KINDS.join(', ')}; or a folder or file of conversation fixtures.`,
        );
      }
      if (!Number.isInteger(weight) || weight < 1) {
        throw inputError(
          'SVC_E_LOAD_MIX',
          `Could not read --mix "${text}": the weight of ${kind} must be a whole number from 1.`,
          'For example --mix text=80,photo=10,typing=10.',
        );
      }
      return { kind, weight };
    });
  if (entries.length === 0) {
    throw inputError(
      'SVC_E_LOAD_MIX',
      'Could not read --mix: it names no kind.',
      'For example --mix text=80,photo=20.',
    );
  }
  return entries;
}

/** A `--mix` value: a path of fixtures when one exists there, else kinds with weights. */
export async function resolveMix(
  value: string | undefined,
  cwd: string,
): Promise<readonly MixEntry[]> {
  if (value === undefined) return DEFAULT_MIX;
  const isPath = await stat(resolve(cwd, value)).then(
    () => true,
    () => false,
  );
  if (!isPath) return parseMixKinds(value);
  const loaded = await loadConversations([resolve(cwd, value)], cwd);
  const counts = new Map<string, MixEntry>();
  for (const { conversation } of loaded) {
    for (const step of conversation.steps) {
      if (!('customer' in step)) continue;
      const message = customerStepMessage(step.customer);
      if (!message) continue;
      const key = JSON.stringify(message);
      const entry = counts.get(key);
      if (entry) entry.weight++;
      else counts.set(key, { kind: String(message.type), weight: 1, message });
    }
  }
  if (counts.size === 0) {
    throw inputError(
      'SVC_E_LOAD_MIX',
      `Could not use --mix ${value}: its conversations have no customer message to send.`,
      'Point --mix at fixtures with "customer" steps, or name kinds (--mix text=80,photo=20).',
    );
  }
  return [...counts.values()];
}

/** The message a fixture's customer step sends (raw bodies are left out: they may be invalid). */
function customerStepMessage(step: {
  text?: string | undefined;
  typing?: 'start' | 'stop' | undefined;
  media?: ({ type: string } & Record<string, unknown>) | undefined;
}): Record<string, unknown> | undefined {
  if (step.text !== undefined) return { type: 'text', text: step.text };
  if (step.typing) return { type: step.typing === 'start' ? 'typein' : 'typeout' };
  if (step.media) return { ...step.media };
  return undefined;
}
