/**
 * Says on every reply that svc-cli listen answered (not part of the spec, which no platform
 * reads): `send-text` and `status` pointed at listen by mistake then say so instead of
 * reporting a customer message delivered (src/roles/integrator/send.ts).
 */
export const LISTEN_ROLE_HEADER = { 'x-svc-role': 'listen' } as const;
