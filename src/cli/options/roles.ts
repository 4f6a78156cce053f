/** The parts a user can play (product.md "Who uses it"); `init --role` offers them. */
export const ROLE_NAMES = [
  'integrator',
  'bot-provider',
  'hook-receiver',
  'web-developer',
  'platform-qa',
] as const;
