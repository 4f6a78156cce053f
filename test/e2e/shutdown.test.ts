/**
 * Shutdown and crash: every serving command exits 130 on SIGINT and 143 on SIGTERM
 * with its record flushed; a SIGKILL mid-load leaves the platform's NDJSON record intact up to
 * its last complete line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { bin } from '../helpers/run-cli.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Spawns the CLI with --json and resolves with the parsed `listening` line. */
function start(
  args: string[],
): Promise<{ child: ChildProcess; listening: Record<string, unknown> }> {
  const child = spawn(process.execPath, [bin, '--json', '--time-scale', '0.01', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve({ child, listening: JSON.parse(line) as Record<string, unknown> }),
    );
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
  });
}

const exitOf = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => child.once('exit', (code) => resolve(code)));

const dir = () => mkdtempSync(path.join(tmpdir(), 'svc-shutdown-'));

const commands: Record<string, { args: string[]; target: (l: Record<string, unknown>) => string }> =
  {
    platform: {
      args: ['platform', '--port', '0', '--no-console'],
      target: (l) => (l.channels as { url: string }[])[0]!.url,
    },
    listen: { args: ['listen', '--port', '0'], target: (l) => `${String(l.url)}/shop` },
    'bot-sim': {
      args: ['bot-sim', '--port', '0'],
      target: (l) => `${String(l.url)}/dev-bot-token`,
    },
    'hook-target': {
      args: ['hook-target', '--port', '0'],
      target: (l) => `${String(l.url)}/hooks`,
    },
  };

describe('SIGINT / SIGTERM: servers closed, record flushed, exit 130 / 143', () => {
  const cases = Object.keys(commands).flatMap((name) => [
    [name, 'SIGINT', 130] as const,
    [name, 'SIGTERM', 143] as const,
  ]);
  it.each(cases)('%s on %s exits %i', async (name, signal, code) => {
    const record = path.join(dir(), 'r.ndjson');
    const { child, listening } = await start([...commands[name]!.args, '--record', record]);
    const response = await fetch(commands[name]!.target(listening), { method: 'POST', body: '{}' });
    await response.arrayBuffer();
    const exited = exitOf(child);
    child.kill(signal);
    expect(await exited).toBe(code);
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ type: 'exchange' });
  });
});

describe('SIGKILL mid-load', () => {
  it('leaves every line of the platform record whole', async () => {
    const record = path.join(dir(), 'killed.ndjson');
    const { child, listening } = await start([...commands.platform!.args, '--record', record]);
    const url = commands.platform!.target(listening);
    let answered = 0;
    let killed = false;
    const exited = exitOf(child);
    const client = async (n: number): Promise<void> => {
      for (let i = 0; !killed; i++) {
        try {
          const r = await fetch(url, {
            method: 'POST',
            body: JSON.stringify({
              sender: { id: `c-${n}` },
              message: { type: 'text', text: `m ${i}` },
            }),
          });
          await r.arrayBuffer();
          if (++answered === 600) {
            killed = true;
            child.kill('SIGKILL');
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, n) => client(n)));
    await exited;
    const text = readFileSync(record, 'utf8');
    const lines = text.split('\n');
    const last = lines.pop();
    expect(last).toBe(''); // whole lines only: the file ends with a newline
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ type: 'exchange' });
  });
});

/** A project with svc-cli as a dependency, as a user's is: `npx svc-cli` runs this build. */
function userProject(): string {
  const project = dir();
  writeFileSync(path.join(project, 'package.json'), '{"name":"user-project","private":true}');
  mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(bin, path.join(project, 'node_modules', '.bin', 'svc-cli'));
  return project;
}

describe('under npx', () => {
  /**
   * Ctrl-C in a terminal signals the whole foreground process group: npx and the svc-cli it
   * started. What the shell then sees is npx's exit: it must still say "interrupted" (130, or
   * death by SIGINT, which a shell reads as 130), never 0, or `npx svc-cli listen && next`
   * would go on. The project here has svc-cli as a dependency, as a user's does.
   */
  it('Ctrl-C on `npx svc-cli listen` ends it as interrupted, not 0', async () => {
    const npx = spawn('npx', ['--no-install', 'svc-cli', '--json', 'listen', '--port', '0'], {
      cwd: userProject(),
      detached: true, // its own process group, as a terminal's foreground job is
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    children.push(npx);
    const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      npx.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: npx.stdout }).once('line', () => resolve());
      void ended.then(() => reject(new Error('npx exited before listening')));
    });
    process.kill(-npx.pid!, 'SIGINT');
    const { code, signal } = await ended;
    expect(code === 130 || signal === 'SIGINT', `code ${code}, signal ${signal}`).toBe(true);
  });

  /**
   * In a script (no job control), `kill %1` signals npx alone: npm exits 143 without passing
   * SIGTERM on, and the svc-cli it started kept its port (the README's next tour then found it
   * taken). svc-cli sees its launcher gone and stops as on SIGTERM.
   */
  it('`kill` of npx alone, as a script does, stops the svc-cli it started', async () => {
    const npx = spawn('npx', ['--no-install', 'svc-cli', '--json', 'listen', '--port', '0'], {
      cwd: userProject(),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    children.push(npx);
    // the pipe ends once every process holding it is gone: npx and the svc-cli it started
    const closed = new Promise<void>((resolve) => npx.stdout.once('end', resolve));
    npx.stdout.resume();
    let stderr = '';
    npx.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: npx.stdout }).once('line', (line) =>
        resolve(String((JSON.parse(line) as { url: string }).url)),
      );
      npx.once('exit', () => reject(new Error('npx exited before listening')));
    });
    npx.kill('SIGTERM'); // npx's pid only, not its group
    await closed;
    await expect(fetch(`${url}/shop`, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace on the way out
  });
});
