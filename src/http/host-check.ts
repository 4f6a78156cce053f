/**
 * The Host allow-list every serving command applies (docs/SECURITY.md). A page on a domain
 * that rebinds its DNS to 127.0.0.1 reaches a loopback server as its own origin: the browser
 * sends that domain in Host, and only the Host tells such a request from the user's own.
 * Names the user did not give are refused; an IP address cannot be rebound, so any address
 * is served (as Vite and webpack-dev-server do), which keeps peers that call by IP working.
 */
import { errorBody } from '../wire-errors.js';

/** Says whether a Host header names this server; built once per server. */
export type HostCheck = (host: string | undefined) => boolean;

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * The name of a Host header without its port, lower-case and without a trailing dot;
 * an IPv6 literal keeps its brackets (`[::1]`).
 * @example hostNameOf('LocalHost.:8080') // 'localhost'
 */
export function hostNameOf(host: string): string {
  let name = host.toLowerCase();
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    return end === -1 ? name : name.slice(0, end + 1);
  }
  const colon = name.indexOf(':');
  if (colon !== -1) name = name.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** How a bound address or an `--allowed-host` entry is written in a Host header. */
function asHostName(entry: string): string {
  const name = entry.trim().toLowerCase();
  // an IPv6 address as --host gives it (`::1`) is bracketed in a Host header
  if (name.includes(':') && !name.startsWith('[')) return `[${name}]`;
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * The check of one server: `localhost` (and names under it, which browsers resolve to
 * loopback themselves), any IP address, the address it binds and each `--allowed-host`
 * entry (`.example.test` also admits every name under it). A request without Host (HTTP/1.0)
 * is served: no browser sends one. The last admitted value is remembered, so a run of
 * requests from one client costs a string compare each.
 * @example const check = createHostCheck('127.0.0.1', ['svc.test']); check('svc.test:8800') // true
 */
export function createHostCheck(bindHost: string, allowed: readonly string[] = []): HostCheck {
  const names = new Set<string>(['localhost', asHostName(bindHost)]);
  const suffixes: string[] = [];
  for (const entry of allowed) {
    const name = asHostName(entry);
    if (name.startsWith('.')) {
      suffixes.push(name);
      names.add(name.slice(1));
    } else if (name !== '') names.add(name);
  }
  let admitted = '';
  return (host) => {
    if (host === undefined || host === admitted) return true;
    const name = hostNameOf(host);
    const ok =
      names.has(name) ||
      name.startsWith('[') ||
      IPV4.test(name) ||
      name.endsWith('.localhost') ||
      suffixes.some((suffix) => name.endsWith(suffix));
    if (ok) admitted = host;
    return ok;
  };
}

/**
 * The 403 a refused Host gets: JSON naming the flag that admits it.
 * @example hostRefusal('evil.example') // '{"error":{"code":"host_not_allowed",...}}'
 */
export function hostRefusal(host: string): string {
  const name = hostNameOf(host);
  return JSON.stringify(
    errorBody(
      'host_not_allowed',
      `svc-cli does not serve requests for Host ${JSON.stringify(name)}: it serves localhost, IP addresses, its --host and the names given with --allowed-host. If you reach it by this name on purpose, start it with --allowed-host ${name} (docs/SECURITY.md).`,
    ),
  );
}
