/**
 * spec 4.5 setCustomData: an array of {content, title, link, key} strings, shown to the agent
 * in array order; tags in `content` neutralised; the admin panel's safe-URL setting blocks
 * links to other domains.
 */
import { REASONS, isRecord } from './checks.js';
import type { CustomDataField, WidgetIssue } from './types.js';

const FIELD_KEYS = ['content', 'title', 'link', 'key'] as const;

export interface LinkPolicy {
  /** The safe-URL setting is on. */
  safeUrl: boolean;
  /** Origin of the page the widget runs on; 'null' or '' when unknown (about:blank). */
  pageOrigin: string;
}

export type CustomDataCheck =
  { ok: true; fields: CustomDataField[]; issues: WidgetIssue[] } | { ok: false; reason: string };

/** spec 4.5 "tags neutralized": `<` and `>` become entities, so no markup survives. */
export const neutraliseTags = (text: string): string =>
  text.replace(/</g, '&lt;').replace(/>/g, '&gt;');

function parseOrigin(origin: string): URL | undefined {
  try {
    return new URL(origin);
  } catch {
    return undefined;
  }
}

/**
 * Why a link is dropped, or undefined when it is kept. Rules (assumption where the spec is
 * silent): the link is resolved against the page origin; an unparsable link or one whose
 * scheme is not http(s) is always dropped (no `javascript:`); with safeUrl on, its host
 * name must equal the page's (case-insensitive; port and scheme ignored; a subdomain is
 * another domain), so relative links are kept (checkCustomData makes them absolute) and, on
 * a page with no origin, absolute ones are all dropped.
 */
export function checkLink(link: string, policy: LinkPolicy): string | undefined {
  const page = parseOrigin(policy.pageOrigin);
  let url: URL;
  try {
    url = page ? new URL(link, page) : new URL(link);
  } catch {
    return 'invalid_link';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'unsafe_link_scheme';
  if (policy.safeUrl && (!page || url.hostname !== page.hostname))
    return 'link_blocked_by_safe_url';
  return undefined;
}

/**
 * Checks and sanitises the fields; fails with spec 4.5's reason when not an array, or with
 * `custom data item <i>...` when an item is not an object of strings.
 * @example checkCustomData([{ title: 'Order', content: '<b>42</b>' }], { safeUrl: false, pageOrigin: 'https://shop.test' })
 */
export function checkCustomData(value: unknown, policy: LinkPolicy): CustomDataCheck {
  if (!Array.isArray(value)) return { ok: false, reason: REASONS.customDataNotArray };
  const fields: CustomDataField[] = [];
  const issues: WidgetIssue[] = [];
  for (const [i, item] of (value as unknown[]).entries()) {
    if (!isRecord(item)) return { ok: false, reason: `custom data item ${i} must be an object` };
    const field: CustomDataField = {};
    for (const key of FIELD_KEYS) {
      const v = item[key];
      if (v === undefined) continue;
      if (typeof v !== 'string') {
        return { ok: false, reason: `custom data item ${i}: ${key} must be a string` };
      }
      field[key] = key === 'content' ? neutraliseTags(v) : v;
    }
    for (const key of Object.keys(item)) {
      if (!(FIELD_KEYS as readonly string[]).includes(key)) {
        issues.push({
          method: 'setCustomData',
          code: 'unknown_field',
          message: `custom data item ${i}: unknown field "${key}" ignored (spec 4.5)`,
        });
      }
    }
    if (field.link !== undefined) {
      const code = checkLink(field.link, policy);
      if (code !== undefined) {
        issues.push({
          method: 'setCustomData',
          code,
          message: `custom data item ${i}: link "${field.link}" dropped (${code})`,
        });
        delete field.link;
      } else if (!/^[a-z][a-z\d+.-]*:/i.test(field.link)) {
        // a relative link means the page's: the agent opens it away from the page, so it
        // is kept as the absolute URL it names there (checkLink resolved it the same way)
        const absolute = new URL(field.link, policy.pageOrigin).href;
        issues.push({
          method: 'setCustomData',
          code: 'relative_link_resolved',
          message: `custom data item ${i}: relative link "${field.link}" kept as ${absolute}, against the page's origin`,
        });
        field.link = absolute;
      }
    }
    fields.push(field);
  }
  return { ok: true, fields, issues };
}
