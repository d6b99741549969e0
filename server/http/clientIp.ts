import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import type { Config } from '../config';

/**
 * The client IP of a request, as gin's `ClientIP()` finds it (contract §1.5): when the socket peer
 * is a trusted proxy, `X-Forwarded-For` then `X-Real-IP`, each read right to left up to the first
 * address that is not a trusted proxy (or the leftmost); otherwise the socket peer.
 *
 * Deviation from one-api: gin there trusts every peer, so any client could name its own address in
 * `X-Forwarded-For` and pass a token's subnet restriction or dodge the rate limits. Here only the
 * peers of `TRUSTED_PROXIES` are believed: by default loopback only (a reverse proxy on the same
 * host); a proxy elsewhere is named by its address or network, `*` restores one-api's trust in every
 * peer. The private ranges are not trusted by default: any client on the LAN or in a neighbouring
 * container could otherwise name a new address per request and never meet the login limit.
 */

/** The proxies whose forwarding headers are believed: every peer (`*`) or these networks. */
export type TrustedProxies = 'all' | readonly string[];

/** The default `TRUSTED_PROXIES`: loopback only (IPv4 and IPv6). */
export const defaultTrustedProxies: readonly string[] = ['127.0.0.0/8', '::1/128'];

/** Go's `net.ParseIP` accepts plain IPv4/IPv6 literals (no zone). */
const parsesAsIp = (s: string): boolean => isIP(s) !== 0 && !s.includes('%');

/** Strips an IPv4-mapped IPv6 prefix (`::ffff:1.2.3.4` → `1.2.3.4`), as Go prints such addresses. */
const normaliseIp = (ip: string): string => {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped?.[1] ?? ip;
};

/**
 * A network (`addr/bits`) or a single address as `addr/32` or `addr/128`; null when it is neither.
 */
export function parseNetwork(text: string): { readonly address: string; readonly prefix: number; readonly family: 'ipv4' | 'ipv6' } | null {
  const entry = text.trim();
  const slash = entry.indexOf('/');
  const address = normaliseIp(slash < 0 ? entry : entry.slice(0, slash));
  const kind = parsesAsIp(address) ? isIP(address) : 0;
  if (kind === 0) return null;
  const max = kind === 4 ? 32 : 128;
  const bits = slash < 0 ? String(max) : entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return { address, prefix: Number(bits), family: kind === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether an address (already normalised) is a trusted proxy. */
export type ProxyTrust = (ip: string) => boolean;

/** The trust test of `proxies` (networks that do not parse were refused by the configuration). */
export function proxyTrust(proxies: TrustedProxies): ProxyTrust {
  if (proxies === 'all') return () => true;
  const list = new BlockList();
  for (const text of proxies) {
    const network = parseNetwork(text);
    if (network !== null) list.addSubnet(network.address, network.prefix, network.family);
  }
  return (ip) => {
    const kind = isIP(ip);
    return kind !== 0 && list.check(ip, kind === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * gin's header check: walk the comma list right to left, give up on the first entry that is not
 * an address, and answer the first one that is not a trusted proxy, or the leftmost.
 */
function fromHeader(header: string | undefined, trusted: ProxyTrust): string | null {
  if (header === undefined || header === '') return null;
  const items = header.split(',');
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!.trim();
    if (!parsesAsIp(item)) return null;
    if (i === 0 || !trusted(normaliseIp(item))) return item;
  }
  return null;
}

/**
 * The client IP from the forwarding headers and the socket peer address `remote` (empty when
 * unknown, e.g. in `app.request`: then '').
 */
export function clientIp(forwardedFor: string | undefined, realIp: string | undefined, remote: string, trusted: ProxyTrust): string {
  const peer = normaliseIp(remote);
  if (!parsesAsIp(peer)) return '';
  if (!trusted(peer)) return peer;
  return fromHeader(forwardedFor, trusted) ?? fromHeader(realIp, trusted) ?? peer;
}

/** The socket peer address of a request served by @hono/node-server, or ''. */
export const socketAddress = (c: Context): string => {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? '';
};

/** The trust test of each configuration, built once. */
const trusts = new WeakMap<Pick<Config, 'trustedProxies'>, ProxyTrust>();

/** The trust test of `config`'s `TRUSTED_PROXIES`, built once per configuration. */
function trustOf(config: Pick<Config, 'trustedProxies'>): ProxyTrust {
  let trusted = trusts.get(config);
  if (trusted === undefined) {
    trusted = proxyTrust(config.trustedProxies);
    trusts.set(config, trusted);
  }
  return trusted;
}

/** The client IP of the request in `c` under `config`'s `TRUSTED_PROXIES`. */
export function requestIp(c: Context, config: Pick<Config, 'trustedProxies'>): string {
  return clientIp(c.req.header('X-Forwarded-For'), c.req.header('X-Real-IP'), socketAddress(c), trustOf(config));
}

/**
 * Whether the socket peer of `c` is a trusted proxy, whose other forwarding headers
 * (`X-Forwarded-Proto`) may be believed. An unknown peer (in-process `app.request`) is not.
 */
export function fromTrustedProxy(c: Context, config: Pick<Config, 'trustedProxies'>): boolean {
  const peer = normaliseIp(socketAddress(c));
  return parsesAsIp(peer) && trustOf(config)(peer);
}
