import { createHash } from 'node:crypto';
import { createRandom } from '../faults/plan.js';

/**
 * Realistic, deterministic visitor context for hook events (spec 2.6 session, geoip,
 * utm_json, page, department): the same seed (a chat's customer) gives the same values in
 * every event of that chat, and a different seed a different visitor.
 */
export interface VisitorProfile {
  session: {
    geoip: {
      region_code: string;
      country: string;
      country_code: string;
      region: string;
      city: string;
      latitude: string;
      longitude: string;
      organization: string;
    };
    utm: string;
    utm_json: { source: string; campaign: string; medium: string; content?: string; term?: string };
    ip_addr: string;
    user_agent: string;
  };
  page: { url: string; title: string };
  department: { id: number; name: string };
}

const PLACES = [
  ['BE', 'Germany', 'DE', 'Berlin', 'Berlin', '52.5200', '13.4050', 'Deutsche Telekom AG'],
  ['CA', 'United States', 'US', 'California', 'San Francisco', '37.7749', '-122.4194', 'Comcast'],
  ['IDF', 'France', 'FR', 'Ile-de-France', 'Paris', '48.8566', '2.3522', 'Orange S.A.'],
  ['ENG', 'United Kingdom', 'GB', 'England', 'London', '51.5072', '-0.1276', 'BT Group'],
  ['NH', 'Netherlands', 'NL', 'North Holland', 'Amsterdam', '52.3676', '4.9041', 'KPN B.V.'],
  ['13', 'Japan', 'JP', 'Tokyo', 'Tokyo', '35.6762', '139.6503', 'NTT Communications'],
] as const;

const CAMPAIGNS = [
  { source: 'google', medium: 'cpc', campaign: 'spring_sale', term: 'running shoes' },
  { source: 'newsletter', medium: 'email', campaign: 'may_digest', content: 'hero_button' },
  { source: 'facebook', medium: 'social', campaign: 'retargeting', content: 'carousel_2' },
  { source: 'bing', medium: 'cpc', campaign: 'brand', term: 'example shop' },
] as const;

const AGENTS_UA = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
] as const;

const PAGES = [
  ['/products/trail-runner-2', 'Trail Runner 2 — Example Shop'],
  ['/checkout', 'Checkout — Example Shop'],
  ['/pricing', 'Plans and pricing — Example Shop'],
  ['/help/returns', 'Returns and refunds — Example Shop'],
] as const;

const DEPARTMENTS = [
  { id: 1, name: 'Sales' },
  { id: 2, name: 'Support' },
  { id: 3, name: 'Billing' },
] as const;

/** Turns any string into a 32-bit seed (stable across runs and machines). */
export function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length) % items.length] as T;
}

/**
 * The visitor context for a seed; documentation IP ranges (RFC 5737) only.
 * @example buildVisitorProfile('acme/c-42').session.geoip.city // the same city every time
 */
export function buildVisitorProfile(seed: string): VisitorProfile {
  const random = createRandom(seedOf(seed));
  const [region_code, country, country_code, region, city, latitude, longitude, organization] =
    pick(PLACES, random);
  const campaign = pick(CAMPAIGNS, random);
  const [path, title] = pick(PAGES, random);
  const net = pick(['192.0.2', '198.51.100', '203.0.113'], random);
  const utm = Object.entries(campaign)
    .map(([key, value]) => `utm_${key}=${encodeURIComponent(value)}`)
    .join('&');
  return {
    session: {
      geoip: {
        region_code,
        country,
        country_code,
        region,
        city,
        latitude,
        longitude,
        organization,
      },
      utm, // spec 2.6: deprecated, still sent next to utm_json
      utm_json: { ...campaign },
      ip_addr: `${net}.${1 + Math.floor(random() * 254)}`,
      user_agent: pick(AGENTS_UA, random),
    },
    page: { url: `https://shop.example.com${path}?${utm}`, title },
    department: { ...pick(DEPARTMENTS, random) },
  };
}
