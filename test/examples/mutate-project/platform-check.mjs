// A tiny integrator suite, as a team would write it: start `svc-cli platform`, send one
// customer message and read the channel status. It checks the answer's status and the
// availability, and nothing else: `svc-cli mutate` shows what it would not notice.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../bin/svc-cli.js', import.meta.url));
const platform = spawn(process.execPath, [bin, '--json', 'platform', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let failed = false;
const check = (ok, what) => {
  if (!ok) {
    failed = true;
    console.error(`FAIL ${what}`);
  }
};
try {
  const lines = createInterface({ input: platform.stdout });
  let channel;
  for await (const line of lines) {
    const event = JSON.parse(line);
    if (event.type === 'listening') {
      channel = event.channels[0];
      break;
    }
  }
  const sent = await fetch(channel.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hello' } }),
  });
  check(sent.status === 200, `customer message answered ${sent.status}`);
  const status = await (await fetch(channel.statusUrl)).text();
  check(status.trim() === '1', `status ${status} with agents online`);
} finally {
  platform.kill('SIGTERM');
}
process.exit(failed ? 1 : 0);
