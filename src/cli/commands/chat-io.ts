/** What `chat` sends (payloads per console action) and how it sees agent messages. */
import type { Journal } from '../../journal/index.js';
import {
  buildLocationMessage,
  buildMediaMessage,
  buildTextMessage,
  buildTypingMessage,
  type CustomerPayload,
  type SenderFields,
} from '../../roles/integrator/index.js';
import type { ChatAction } from '../console/chat-console.js';
import { recordExchange, throughJournal } from '../../journal/index.js';

/** A journal that also hands every received agent message (its JSON body) to `onMessage`. */
export function captureAgentMessages(
  journal: Journal,
  onMessage: (body: unknown) => void,
): Journal {
  return throughJournal(journal, (input) => {
    const stored = recordExchange(journal, input);
    try {
      if (input.request.body !== undefined) onMessage(JSON.parse(input.request.body));
    } catch {
      // not JSON: the listener already reported it
    }
    return stored;
  });
}

/**
 * The payload a line sends; a media line without its size must have it learned first
 * (learnFileSize) and comes back undefined until then.
 */
export function buildPayload(
  action: ChatAction,
  sender: SenderFields,
): CustomerPayload | undefined {
  switch (action.kind) {
    case 'text':
      return buildTextMessage({ sender, text: action.text });
    case 'typing':
      return buildTypingMessage({ sender, state: action.on ? 'start' : 'stop' });
    case 'media':
      if (action.fileSize === undefined) return undefined;
      return buildMediaMessage({
        sender,
        type: action.type,
        media: { file: action.file, fileName: action.fileName, fileSize: action.fileSize },
      });
    case 'location':
      return buildLocationMessage({
        sender,
        latitude: action.latitude,
        longitude: action.longitude,
      });
    case 'sender':
    case 'agent':
    case 'help':
    case 'quit':
    case 'none':
    case 'error':
      return undefined;
    default: {
      const never: never = action;
      throw new Error(`unknown chat action ${JSON.stringify(never)}`);
    }
  }
}
