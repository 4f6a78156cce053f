import { readFile, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { SvcError } from '../errors.js';
import { CONVERSATION_VERSION, conversationSchema, type Conversation } from './format.js';

export interface LoadedConversation {
  file: string;
  conversation: Conversation;
}

async function walk(path: string, out: string[]): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new SvcError('SVC_E_READ', 'input', `Could not read ${path}: no such file or folder.`);
  }
  if (info.isDirectory()) {
    const entries = (await readdir(path)).sort();
    for (const entry of entries) {
      const full = join(path, entry);
      const s = await stat(full);
      if (s.isDirectory() || entry.endsWith('.json')) await walk(full, out);
    }
  } else {
    out.push(path);
  }
}

/** Reads and checks one conversation file; every problem is an input error naming the file. */
export async function loadConversation(path: string, file = path): Promise<Conversation> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SvcError(
      'SVC_E_READ',
      'input',
      `Could not read ${file}: ${(error as Error).message}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SvcError(
      'SVC_E_CONVERSATION',
      'input',
      `Could not parse ${file}: ${(error as Error).message}.`,
    );
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== CONVERSATION_VERSION) {
    throw new SvcError(
      'SVC_E_CONVERSATION_VERSION',
      'input',
      `Could not load ${file}: conversation version ${JSON.stringify(version)} is not supported (this svc-cli reads version ${CONVERSATION_VERSION}).`,
      'Set "version": 1, or upgrade svc-cli.',
    );
  }
  const parsed = conversationSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new SvcError(
      'SVC_E_CONVERSATION',
      'input',
      `Could not load ${file}: ${issues.join('; ')}.`,
      'The format is described by `svc-cli schema --kind conversation`.',
    );
  }
  return parsed.data;
}

/**
 * Loads every conversation under the given files and folders (recursive, *.json), sorted.
 * @example const all = await loadConversations(['fixtures/conversations']);
 */
export async function loadConversations(
  paths: string[],
  cwd = process.cwd(),
): Promise<LoadedConversation[]> {
  const files: string[] = [];
  for (const path of paths) await walk(path, files);
  const loaded: LoadedConversation[] = [];
  for (const file of files)
    loaded.push({ file: relative(cwd, file) || file, conversation: await loadConversation(file) });
  return loaded;
}
