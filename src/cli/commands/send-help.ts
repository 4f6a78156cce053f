/** The `--help` epilogue the commands that send customer messages share. */
export const SEND_HELP_AFTER = `
Prints the platform's status, body and latency. With --force, a payload the contract check
flagged and the platform refused (4xx) is the expected answer.`;
