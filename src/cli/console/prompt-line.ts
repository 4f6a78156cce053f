/**
 * The agent console's input line on a terminal. What the person types stays on the last line
 * and is drawn again under every log line printed meanwhile, with the redelivery countdown in
 * front of the prompt. Before, the terminal echoed the typing and the spinner's frames wiped
 * it, and a log line arriving mid-word was glued to the half-typed text.
 */
import {
  clearScreenDown,
  createInterface,
  cursorTo,
  moveCursor,
  type Interface,
} from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import type { CliContext } from '../context.js';
import { isForegroundJob, whenForeground } from '../terminal.js';

export interface PromptLine {
  /** the readline that reads the console's lines (raw mode: Ctrl-C arrives as its SIGINT) */
  readonly readline: Interface;
  /** prints above the input line, then draws the line again with what was typed so far */
  around(print: () => void): void;
  /** a status before the prompt (the countdown); undefined takes it away */
  status(text: string | undefined): void;
  close(): void;
}

export interface PromptLineOptions {
  /** e.g. `agent> ` */
  prompt: string;
  /** how the status is styled (dim) */
  style?: (text: string) => string;
  /** writes what stdout still buffers, before the prompt is drawn under it */
  flush?: () => unknown;
}

/**
 * Only for a terminal on both stdin and stdout (the caller checks).
 * @example const line = createPromptLine(ctx, { prompt: 'agent> ', flush: () => out.flush() });
 */
export function createPromptLine(ctx: CliContext, options: PromptLineOptions): PromptLine {
  const rl = createInterface({
    input: ctx.stdin,
    output: ctx.stdout,
    terminal: true,
    historySize: 500,
    prompt: options.prompt,
  });
  let shown = options.prompt;
  let closed = false;
  rl.once('close', () => (closed = true));
  /**
   * Clears the prompt line, all its rows when what was typed wraps, and leaves the cursor at
   * its start; readline then draws the prompt there (its own record of the rows is reset, or
   * it would move up into what was printed meanwhile).
   */
  const wipe = (): void => {
    const { rows } = rl.getCursorPos();
    if (rows > 0) moveCursor(ctx.stdout, 0, -rows);
    cursorTo(ctx.stdout, 0);
    clearScreenDown(ctx.stdout);
    (rl as unknown as { prevRows?: number }).prevRows = 0;
  };
  let suspended = false; // Ctrl-Z: the keyboard is given back until the job has it again
  const redraw = (): void => {
    if (closed || suspended) return; // a prompt reads the keyboard
    wipe();
    rl.prompt(true);
  };
  // Ctrl-Z arrives as a key in raw mode. The line gives the keyboard back and stops the job
  // as the terminal would; continued (`fg`, `bg`), it takes the keyboard again only in the
  // foreground: raw mode or a read from a background job would stop it again (SIGTTOU,
  // SIGTTIN), and a simulator sent on with `bg` keeps serving. A later `fg` sends no signal
  // to a running job, so a background one looks until it has the terminal.
  const setRaw = (on: boolean): void => {
    (ctx.stdin as { setRawMode?: (on: boolean) => unknown }).setRawMode?.(on);
  };
  let stopWaiting = (): void => undefined;
  const takeKeyboard = (): void => {
    if (closed || !suspended) return;
    suspended = false;
    setRaw(true);
    redraw(); // prompts, which resumes the input
  };
  const onContinue = (): void => {
    if (closed || !suspended) return;
    if (isForegroundJob(ctx.stdin)) takeKeyboard();
    else stopWaiting = whenForeground(ctx.stdin, takeKeyboard);
  };
  rl.on('SIGTSTP', () => {
    wipe();
    suspended = true;
    rl.pause();
    setRaw(false);
    process.kill(process.pid, 'SIGTSTP');
  });
  process.on('SIGCONT', onContinue);
  rl.once('close', () => {
    process.off('SIGCONT', onContinue);
    stopWaiting();
  });
  // a line entered while the countdown stood before the prompt stays in the scrollback as
  // typed, without the countdown ("redelivery attempt 2/3 in 1.0 s  agent> hi")
  rl.on('line', (line) => {
    if (closed || shown === options.prompt) return;
    const width = stripVTControlCharacters(shown).length + line.length;
    const columns = Math.max(1, (ctx.stdout as { columns?: number }).columns ?? 80);
    moveCursor(ctx.stdout, 0, -Math.max(1, Math.ceil(width / columns)));
    cursorTo(ctx.stdout, 0);
    clearScreenDown(ctx.stdout);
    ctx.stdout.write(`${options.prompt}${line}\n`);
  });
  redraw();
  return {
    readline: rl,
    around(print) {
      if (closed || suspended) return print();
      wipe();
      print();
      void options.flush?.();
      rl.prompt(true);
    },
    status(text) {
      const next =
        text === undefined
          ? options.prompt
          : `${(options.style ?? String)(text)}  ${options.prompt}`;
      if (next === shown) return;
      shown = next;
      rl.setPrompt(next);
      redraw();
    },
    close() {
      if (closed) return;
      wipe();
      rl.close();
    },
  };
}
