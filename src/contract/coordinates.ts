/**
 * spec 2.4: the degrees a location's coordinates can have. Plain data with no imports: the
 * contract's schema, send-location's flags and the consoles' `/location` all read it.
 */
export const COORDINATE_RANGES = {
  latitude: { min: -90, max: 90 },
  longitude: { min: -180, max: 180 },
} as const;
