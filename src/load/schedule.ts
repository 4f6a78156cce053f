/**
 * Open-model arrivals: series start at planned times whatever the endpoint does,
 * so a slow answer cannot hold the next request back (no coordinated omission). With a
 * ramp-up the rate grows linearly from 0 to the asked rate.
 */
export interface Workload {
  /** arrivals per second once ramped up */
  rate: number;
  /** wall ms of the whole run (with the ramp-up); ignored when `count` is given */
  durationMs?: number;
  /** exactly this many arrivals */
  count?: number;
  /** wall ms over which the rate grows from 0 to `rate` */
  rampUpMs?: number;
}

/**
 * Wall ms after the start at which arrival `i` (from 0) is due.
 * @example arrivalAt(10, { rate: 100 }) // 100
 */
export function arrivalAt(i: number, workload: Workload): number {
  const perMs = workload.rate / 1000;
  const ramp = workload.rampUpMs ?? 0;
  const inRamp = (perMs * ramp) / 2; // arrivals during the ramp-up
  if (ramp > 0 && i < inRamp) return Math.sqrt((2 * ramp * i) / perMs);
  return ramp + (i - inRamp) / perMs;
}

/** How many arrivals the workload plans in all. */
export function plannedArrivals(workload: Workload): number {
  if (workload.count !== undefined) return workload.count;
  const duration = workload.durationMs ?? 0;
  const perMs = workload.rate / 1000;
  const ramp = Math.min(workload.rampUpMs ?? 0, duration);
  const inRamp = ramp > 0 ? (perMs * ramp * ramp) / (2 * (workload.rampUpMs ?? ramp)) : 0;
  return Math.floor(inRamp + perMs * (duration - ramp));
}
