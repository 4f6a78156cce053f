/**
 * The agent console's input line on a terminal. What the person types stays on the last line
 * and is drawn again under every log line printed meanwhile, with the redelivery countdown in
 * front of the prompt. Before, the terminal echoed the typing and the spinner's frames wiped
 * it, and a log line arriving mid-word was glued to the half-typed text (newcomer pass).
 */
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { CliContext } from '../context.js';

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
  const redraw = (): void => {
    if (closed) return;
    clearLine(ctx.stdout, 0);
    cursorTo(ctx.stdout, 0);
    rl.prompt(true);
  };
  redraw();
  return {
    readline: rl,
    around(print) {
      if (closed) return print();
      clearLine(ctx.stdout, 0);
      cursorTo(ctx.stdout, 0);
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
      clearLine(ctx.stdout, 0);
      cursorTo(ctx.stdout, 0);
      rl.close();
    },
  };
}
