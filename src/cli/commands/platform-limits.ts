/**
 * `platform`'s memory flags as numbers: `--chat-idle-timeout` (a protocol-time
 * duration, or off) and `--record-max-size` (bytes with an optional unit).
 */
import { readDuration } from '../../duration.js';
import { inputError } from '../../errors.js';
import type { ChatLimits } from '../../platform/chat-lifecycle.js';

/**
 * Protocol ms from `30m`, `90s`, `1h`, `500ms`, a bare number of seconds; 0 from `off`/`0`.
 * @example parseIdleTimeout('30m') // 1_800_000
 */
export function parseIdleTimeout(text: string): number {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'off' || trimmed === 'never') return 0;
  const ms = readDuration(trimmed, 's');
  if (ms === undefined) {
    throw inputError(
      'SVC_E_OPTIONS',
      `Could not read --chat-idle-timeout "${text}": a duration is a number with ms, s, m or h, or off.`,
      'For example --chat-idle-timeout 30m, or --chat-idle-timeout off to keep chats open.',
    );
  }
  return ms;
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/**
 * Bytes from `100MB`, `512k`, `1GiB`, `65536` (units are powers of 1024).
 * @example parseSize('100MB') // 104_857_600
 */
export function parseSize(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(text.trim().toLowerCase());
  const factor = match ? SIZE_UNITS[match[2] ?? ''] : undefined;
  const bytes = match && factor ? Math.floor(Number(match[1]) * factor) : 0;
  if (!(bytes >= 1024)) {
    throw inputError(
      'SVC_E_OPTIONS',
      `Could not read ${flag} "${text}": a size is at least 1KB, a number with B, KB, MB or GB.`,
      `For example ${flag} 100MB.`,
    );
  }
  return bytes;
}

/** The core's chat limits from the resolved flags. */
export function chatLimitsOf(flags: { chatIdleTimeout: string; maxChats: number }): ChatLimits {
  return { idleTimeoutMs: parseIdleTimeout(flags.chatIdleTimeout), maxChats: flags.maxChats };
}
