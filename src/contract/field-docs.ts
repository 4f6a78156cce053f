/**
 * What each payload field means, one line per field, beside the schemas that check it. The
 * JSON Schema of a kind (`json-schema.ts`) carries these as `description`, so the JSON Schemas,
 * the OpenAPI and AsyncAPI documents and docs/CONTRACT.md all say the same thing.
 *
 * Keyed by a kind prefix (the longest that matches wins: `channel.agent` before `channel`) and
 * a field path (`message.buttons[].id`: `[]` stands for any array item). Limits, types and
 * allowed values are not repeated here: they come from the schema itself.
 */
import { TEXT_LIMIT } from './rules.js';

type FieldTable = Readonly<Record<string, string>>;

const mediaFields: FieldTable = {
  'message.file': 'link to the file',
  'message.file_name': 'file name as the sender chose it',
  'message.file_size': 'size of the file in bytes',
  'message.thumb': 'link to a thumbnail, 320 px wide',
  'message.emoji': 'a character that may stand in for the media',
  'message.duration': 'length in seconds',
  'message.width': 'width in pixels',
  'message.height': 'height in pixels',
  'message.performer': 'author, composer or performer',
  'message.title': 'title of the media',
  'message.latitude':
    'latitude in degrees, -90 to 90 (outside: an `out_of_range` warning, delivered)',
  'message.longitude':
    'longitude in degrees, -180 to 180 (outside: an `out_of_range` warning, delivered)',
};

const hookShared: FieldTable = {
  event_name: 'which event this is',
  chat_id: 'id of the chat',
  widget_id: "the channel's widget id",
  user_token: 'the visitor id the page set with setUserToken, passed through unchanged',
  visitor: 'the visitor the event is about',
  'visitor.name': "visitor's name",
  'visitor.email': "visitor's e-mail",
  'visitor.phone': "visitor's phone",
  'visitor.number': 'visitor number, counted up per site',
  'visitor.description': 'extra information about the visitor',
  'visitor.social': 'social profiles (contents unspecified)',
  'visitor.chats_count': 'how many chats (the contract calls it a count of messages)',
  session: "the visitor's browsing session",
  'session.geoip': 'where the visitor is, by IP address',
  'session.geoip.region_code': 'region code',
  'session.geoip.country': 'country name',
  'session.geoip.country_code': 'ISO country code',
  'session.geoip.region': 'region name',
  'session.geoip.city': 'city',
  'session.geoip.latitude': 'latitude, as a string',
  'session.geoip.longitude': 'longitude, as a string',
  'session.geoip.organization': 'network owner',
  'session.utm': 'UTM parameters as one string; superseded by utm_json',
  'session.utm_json': 'UTM parameters, one field each',
  'session.utm_json.source': 'utm_source',
  'session.utm_json.campaign': 'utm_campaign',
  'session.utm_json.content': 'utm_content',
  'session.utm_json.medium': 'utm_medium',
  'session.utm_json.term': 'utm_term',
  'session.ip_addr': "visitor's IP address",
  'session.user_agent': "visitor's browser",
  page: 'the page the visitor is on',
  'page.url': 'address of the page',
  'page.title': 'title of the page',
  analytics: 'analytics data (contents unspecified)',
  department: 'the department the chat belongs to',
  'department.id': 'department id',
  'department.name': 'department name',
  agent: 'the agent the event is about',
  'agent.id': 'agent id',
  'agent.name': "agent's name",
  'agent.email': "agent's e-mail",
  'agent.phone': "agent's phone",
  agents: 'every agent who took part in the chat',
  'agents[].id': 'agent id',
  'agents[].name': "agent's name",
  'agents[].email': "agent's e-mail",
  'agents[].phone': "agent's phone",
  call: 'the phone call',
  'call.type': 'callback, incoming or outgoing',
  'call.phone': 'phone number of the call',
  'call.status': 'where the call stands',
  'call.reason': 'why the call failed (with status error)',
  'call.record_url': 'link to the mp3 recording, once the call has ended',
  chat: 'the finished chat',
  'chat.messages': 'the chat log, oldest first',
  'chat.messages[].type': 'visitor for a customer line, agent for an agent line',
  'chat.messages[].timestamp': 'when the line was written (unix time)',
  'chat.messages[].agent_id': 'who wrote an agent line',
  'chat.messages[].blacklisted': 'the line came from a blacklisted visitor',
  'chat.messages[].message': 'text of the line (as the public samples carry it)',
  'chat.messages[].text': 'text of the line (older receivers read this name)',
  'chat.rate': "the visitor's rating of the chat, or null",
  'chat.blacklisted': 'the visitor was added to the blacklist',
  assign_to: 'the CRM link from the chat_accepted reply',
  offline_message_id: 'id of the offline message',
  message: 'text of the offline message',
  offline_message: 'text of the offline message (the name in the samples)',
  offline_messages: 'text of the offline message (the name in the field table)',
  // the public Webhooks page's client events (docs profile)
  client_id: 'id of the client in the account (public docs)',
  attributes: "the client's attributes: name -> value (public docs)",
  organization: "the client card's organisation (public docs)",
  status: "the client card's category (public docs)",
  assigned_agent: 'the agent responsible for the client (public docs)',
  tags: 'tags set on the client (public docs)',
};

const FIELD_DOCS: Readonly<Record<string, FieldTable>> = {
  channel: {
    sender: 'who wrote the message',
    'sender.id': "the customer's id in the integrator's system; empty means not sent",
    'sender.name': 'shown to the agent; a customer without one shows as anonymous',
    'sender.phone': "customer's phone, shown to the agent",
    'sender.email': "customer's e-mail, shown to the agent",
    'sender.photo': 'avatar link (128x128 png, jpg or gif recommended)',
    'sender.invite': 'invitation text shown to the agent as context',
    message: 'the message itself',
    'message.type': 'text, a typing notice or a media type',
    'message.id': "the sender's message id (logs only for now)",
    'message.text': `message text; over ${TEXT_LIMIT} characters it is cut`,
    ...mediaFields,
    'message.text (media)': 'caption or comment',
    result: '"ok" when the message was taken',
    error: 'why the message was not taken; shown to the agent',
    'error.code': "the integrator's own error code",
    'error.message': 'human-readable reason, shown to the agent',
  },
  'channel.agent': {
    'sender.name': "agent's name",
    'sender.photo': "agent's avatar link",
    recipient: 'the customer the message is for',
    'recipient.id': 'the sender.id the integrator sent earlier, unchanged',
    'message.id': "the platform's message id",
    // spec 2.2 sets no limit on an agent's text: only a customer's is cut (2.1, 8)
    'message.text': 'message text',
  },
  bot: {
    event: 'which event this is',
    id: 'unique event id, for logs and debugging',
    client_id: 'the customer, unique within the account',
    chat_id: 'the chat, unique within the account',
    message: 'the message the event carries',
    'message.type': 'TEXT, MARKDOWN or BUTTONS',
    'message.timestamp':
      'unix time of the message, in seconds (milliseconds: accepted, a timestamp_ms warning)',
    'message.text': 'message text; for MARKDOWN and BUTTONS the plain-text fallback',
    'message.button_id': 'the button the customer pressed',
    'message.content': 'Markdown body (links, bold, italic)',
    'message.title': 'caption above the buttons',
    'message.buttons': 'prepared answers the customer can press',
    'message.buttons[].text': 'text of the prepared answer',
    'message.buttons[].id': 'id of the prepared answer',
    sender: 'the customer (public samples)',
    'sender.id': "the customer's id (public samples)",
    'sender.name': "the customer's name (public samples)",
    'sender.url': 'the page the customer writes from (public samples)',
    'sender.has_contacts': 'the customer left a phone or e-mail (public samples)',
    site_id: 'the channel (public samples)',
    agents_online: 'whether agents are online (public samples)',
    channel: 'the channel the customer writes on (public samples)',
    'channel.id': 'channel id',
    'channel.type': 'channel type',
    contact_info: "the customer's contact data",
    'contact_info.name': "customer's name",
    'contact_info.email': "customer's e-mail",
    'contact_info.phone': "customer's phone",
    'contact_info.description': 'extra information about the customer',
    error: 'what went wrong',
    'error.code': 'invalid_client, unauthorized_client, invalid_request or another code',
    'error.message': 'human-readable reason',
  },
  hook: hookShared,
  'hook.chat_accepted.reply': {
    result: 'ok passes the data to the agent; anything else drops it',
    custom_data: 'fields shown to the agent, in order',
    'custom_data[].title': 'heading above the field',
    'custom_data[].content': 'text of the field',
    'custom_data[].link': 'link opened on click',
    'custom_data[].key': 'bold label before a colon',
    contact_info: "the visitor's contact data, shown as if the visitor typed it",
    'contact_info.name': "visitor's name",
    'contact_info.phone': "visitor's phone",
    'contact_info.email': "visitor's e-mail",
    'contact_info.description': 'extra information about the visitor, as setContactInfo takes it',
    enable_assign: 'show the agent a button binding the visitor to a CRM card',
    crm_link: 'link for a separate button under the custom fields',
    page: 'a page to show the agent',
    'page.url': 'address of the page',
    'page.title': 'title of the page',
  },
  'hook.call_event.reply': { result: 'the reply is not specified; any object is taken' },
  hook_reply: { result: 'ok, or FAILURE' },
  widget: {
    start: 'call opens the callback form with a phone field',
    name: "visitor's name",
    email: "visitor's e-mail",
    phone: "visitor's phone",
    description: 'extra information about the visitor',
    message: 'text of the offline message',
    fields: 'custom fields shown to the agent, in order',
    'fields[].content': 'text of the field (tags neutralised)',
    'fields[].title': 'heading above the field',
    'fields[].link': 'link opened on click',
    'fields[].key': 'bold label before a colon',
    rules: 'invitation rules (structure unspecified)',
    token: 'the visitor id, passed on in hook events',
    invitation_text: 'text of the invitation',
    department_id: 'department the invitation is for',
    result: 'ok, or fail',
    reason: 'why the call failed',
    error: 'why the offline message could not be sent',
    err: 'error passed to the callback, if any',
    visitor_number: 'visitor number (1, 2, 3, ...)',
    res: 'how the call ended',
    'res.result': 'ok, or fail',
    'res.reason': 'why the call failed',
    state: 'the new window state',
  },
};

/** The tables that apply to a kind, most specific first. */
function tablesOf(kind: string): FieldTable[] {
  const tables: FieldTable[] = [];
  const parts = kind.split('.');
  for (let n = parts.length; n > 0; n--) {
    const table = FIELD_DOCS[parts.slice(0, n).join('.')];
    if (table) tables.push(table);
  }
  return tables;
}

/**
 * What a field of a kind means, or undefined when the table has no line for it.
 * @example describeField('channel.customer.text', 'sender.id')
 */
export function describeField(kind: string, path: string): string | undefined {
  const tables = tablesOf(kind);
  // A media message's text is a caption, not the text message's text.
  if (path === 'message.text' && /^channel\.(customer|agent)\.(?!text|typing)/.test(kind))
    return FIELD_DOCS.channel!['message.text (media)'];
  if (kind.startsWith('hook.') && kind.endsWith('.reply') && kind !== 'hook.chat_accepted.reply')
    return FIELD_DOCS.hook_reply![path];
  for (const table of tables) {
    const line = table[path];
    if (line !== undefined) return line;
  }
  return undefined;
}
