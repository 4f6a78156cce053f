import { SvcError } from '../errors.js';

/** Small flag parsers shared by commands; every failure is an input error (exit 2). */
export function parseIntegerFlag(
  name: string,
  value: string,
  range: { min?: number; max?: number } = {},
): number {
  const n = Number(value);
  if (
    !Number.isInteger(n) ||
    (range.min !== undefined && n < range.min) ||
    (range.max !== undefined && n > range.max)
  ) {
    const bounds = [
      range.min !== undefined ? `>= ${range.min}` : '',
      range.max !== undefined ? `<= ${range.max}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    throw new SvcError(
      'SVC_E_FLAG',
      'input',
      `Could not use ${name} "${value}": expected a whole number${bounds ? ` ${bounds}` : ''}.`,
    );
  }
  return n;
}

export function parseTimeScale(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new SvcError(
      'SVC_E_FLAG',
      'input',
      `Could not use --time-scale "${value}": expected a positive number.`,
      'Example: --time-scale 0.01 runs protocol timers 100 times faster.',
    );
  }
  return n;
}

export function parseUrlFlag(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SvcError(
      'SVC_E_FLAG',
      'input',
      `Could not use ${name} "${value}": not a URL.`,
      'Example: http://127.0.0.1:9000/agent-messages',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(
      'SVC_E_FLAG',
      'input',
      `Could not use ${name} "${value}": only http and https URLs are supported.`,
    );
  }
  return value.replace(/\/+$/, '');
}
