/** A timeout of a one-off request under --time-scale says the wall time it stood for. */
import { describe, expect, it } from 'vitest';
import { SvcError } from '../../../src/errors.js';
import { withScaledTimeout } from '../../../src/cli/scaled-timeout.js';

describe('withScaledTimeout', () => {
  const timeout = new SvcError(
    'SVC_E_TIMEOUT',
    'Could not read the channel status: no complete reply within 10000 ms.',
  );

  it('names the wall time below a time scale of 1', () => {
    const said = withScaledTimeout(timeout, 0.001, 10_000) as SvcError;
    expect(said.message).toBe(timeout.message);
    expect(said.hint).toContain('at --time-scale 0.001 it was 10 ms of wall time');
  });

  it('leaves other errors, and time scales of 1 and more, as they are', () => {
    expect(withScaledTimeout(timeout, 1, 10_000)).toBe(timeout);
    const other = new SvcError('SVC_E_UNREACHABLE', 'Could not send.');
    expect(withScaledTimeout(other, 0.01, 10_000)).toBe(other);
  });
});
