import { SvcError } from '../errors.js';

/**
 * A timeout under a time scale below 1: the limit the message names is protocol time, and the
 * wall time it stood for (10 ms for 10000 ms at 0.001) is what ran out; say so.
 */
export function withScaledTimeout(problem: unknown, timeScale: number, timeoutMs: number): unknown {
  if (!(problem instanceof SvcError) || problem.code !== 'SVC_E_TIMEOUT' || timeScale >= 1)
    return problem;
  const wall = Math.round(timeoutMs * timeScale * 10) / 10;
  return new SvcError(
    problem.code,
    problem.message,
    `--timeout ${timeoutMs} ms is protocol time: at --time-scale ${timeScale} it was ${wall} ms of wall time. Give a larger --timeout, or leave the time scale at 1 for a one-off request.`,
    { details: problem.details, cause: problem },
  );
}
