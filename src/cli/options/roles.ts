/** The parts a user can play (who uses svc-cli); `init --role` offers them. */
export const ROLE_NAMES = [
  'integrator',
  'bot-provider',
  'hook-receiver',
  'web-developer',
  'platform-qa',
] as const;
