/** The `--help` epilogue the commands that send customer messages share. */
export const SEND_HELP_AFTER = `
Prints the platform's status, body and latency. Exit codes: 0 delivered (HTTP 200),
1 the platform refused it (404: no channel at that URL), 2 invalid flags or payload
(without --force), 3 platform unreachable or timed out. With --force, a payload the
contract check flagged and the platform refused (4xx) is the expected answer: exit 0.`;
