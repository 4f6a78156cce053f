/**
 * `--mix`: which payloads a load run sends and in what share, either as kinds with weights
 * (`text=80,photo=10,typing=10`) or as the customer steps of conversation fixtures
 * (`--mix fixtures/conversations`), each step a template drawn as often as the fixtures use it.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inputError } from '../errors.js';
import {
  DEFAULT_CONVERSATIONS,
  loadConversations,
  localOrShippedConversations,
} from '../conversation/load.js';
import { validate } from '../contract/validate.js';
import { FILE_MEDIA_TYPES, kindOfChannelMessage } from '../roles/integrator/kinds.js';
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

/** What `--mix` resolved to; `shippedFolder` when it fell back to svc-cli's own fixtures. */
export interface ResolvedMix {
  entries: readonly MixEntry[];
  shippedFolder?: string;
}

/** `fixtures/conversations`, `./fixtures/conversations/`: the folder the docs name. */
const isDefaultConversations = (value: string): boolean =>
  value.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '') === DEFAULT_CONVERSATIONS;

/**
 * A `--mix` value: a path of fixtures when one exists there, else kinds with weights. With
 * `conversations`, each fixture is one entry whose `messages` are its customer steps in order
 * (a whole conversation per arrival); else each distinct customer step is a template, weighted
 * by how often the fixtures use it. A missing `fixtures/conversations` falls back to the
 * shipped ones, as `replay` does; another value with a slash or `.json` is a missing path.
 */
export async function resolveMix(
  value: string | undefined,
  cwd: string,
  options: { conversations?: boolean } = {},
): Promise<ResolvedMix> {
  if (value === undefined) return { entries: DEFAULT_MIX };
  let path = resolve(cwd, value);
  let shippedFolder: string | undefined;
  const exists = (at: string) =>
    stat(at).then(
      () => true,
      () => false,
    );
  if (!(await exists(path))) {
    const fallback = isDefaultConversations(value) ? localOrShippedConversations(cwd) : undefined;
    if (fallback?.shipped && (await exists(fallback.path))) {
      path = fallback.path;
      shippedFolder = fallback.path;
    } else if (/[\\/]/.test(value) || /\.json$/i.test(value)) {
      // "is not a message kind" would send the user looking for a kind named like a path
      throw inputError(
        'SVC_E_LOAD_MIX',
        `Could not read --mix "${value}": the path ${path} does not exist.`,
        'Give a folder or file of conversation fixtures, or kinds with weights (--mix text=80,photo=20).',
      );
    } else return { entries: parseMixKinds(value) };
  }
  const entries = await mixOfFixtures(value, path, cwd, options);
  return shippedFolder === undefined ? { entries } : { entries, shippedFolder };
}

/** The fixtures at `path` as mix entries (see resolveMix). */
async function mixOfFixtures(
  value: string,
  path: string,
  cwd: string,
  options: { conversations?: boolean },
): Promise<readonly MixEntry[]> {
  const loaded = await loadConversations([path], cwd);
  const templates = new Map<string, MixEntry>();
  const conversations: MixEntry[] = [];
  for (const { conversation } of loaded) {
    const messages = conversation.steps.flatMap((step) => {
      const message = 'customer' in step ? customerStepMessage(step.customer) : undefined;
      return message && isValidCustomerMessage(message) ? [message] : [];
    });
    if (messages.length > 0) {
      conversations.push({ kind: 'conversation', weight: 1, messages });
    }
    for (const message of messages) {
      const key = JSON.stringify(message);
      const entry = templates.get(key);
      if (entry) entry.weight++;
      else templates.set(key, { kind: String(message.type), weight: 1, message });
    }
  }
  if (templates.size === 0) {
    throw inputError(
      'SVC_E_LOAD_MIX',
      `Could not use --mix ${value}: its conversations have no customer message to send.`,
      'Point --mix at fixtures with "customer" steps, or name kinds (--mix text=80,photo=20).',
    );
  }
  return options.conversations ? conversations : [...templates.values()];
}

/** Fixtures also show refused payloads on purpose; a load run sends only valid ones (spec 2.1, 2.4). */
function isValidCustomerMessage(message: Record<string, unknown>): boolean {
  const body = { sender: { id: 'load-customer' }, message };
  const kind = kindOfChannelMessage('customer', body);
  return kind !== undefined && validate(kind, body).ok;
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
