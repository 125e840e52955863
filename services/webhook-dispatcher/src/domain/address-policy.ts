import { BlockList, isIP } from 'node:net';
import { blockedRangeOf } from './blocked-ranges';

/** Strips the brackets of an IPv6 literal as URL.hostname keeps them. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname.toLowerCase();
}

/**
 * Where webhooks may go. Only https unless http is allowed (never in production); never to private, loopback,
 * link-local or other reserved addresses, unless the URL's host is on the allow-list: a host name entry admits
 * that name whatever it resolves to, an IP or CIDR entry admits URLs written with such an IP. A name that is not
 * listed must resolve to public addresses only (checked at connect time, see guarded-connector).
 */
export class AddressPolicy {
  private readonly names = new Set<string>();
  private readonly ips = new BlockList();

  constructor(
    readonly allowHttp: boolean,
    allowedHosts: string,
  ) {
    for (const raw of allowedHosts.split(',').map((h) => h.trim().toLowerCase())) {
      if (raw === '') continue;
      const [network, prefix] = raw.split('/');
      const family = isIP(bareHost(network));
      if (family === 0) this.names.add(raw);
      else {
        const type = family === 6 ? 'ipv6' : 'ipv4';
        const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
        this.ips.addSubnet(bareHost(network), bits, type);
      }
    }
  }

  /** True when the URL host (bare) is allow-listed and so may be private. */
  isAllowListed(host: string): boolean {
    const family = isIP(host);
    if (family === 0) return this.names.has(host.toLowerCase());
    return this.ips.check(host, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** Why a resolved or literal address may not be reached for this host; undefined when it may. */
  refuseAddress(host: string, address: string): string | undefined {
    if (this.isAllowListed(host)) return undefined;
    const kind = blockedRangeOf(address);
    return kind === undefined ? undefined : `${address} is a ${kind} address`;
  }

  /** Why a URL is refused before any DNS look-up (scheme, credentials, a literal reserved IP); undefined if fine. */
  refuseUrl(rawUrl: string): string | undefined {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return 'url must be an absolute URL';
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.allowHttp)) {
      return this.allowHttp ? 'url must use https or http' : 'url must use https';
    }
    if (url.username !== '' || url.password !== '') return 'url must not contain credentials';
    const host = bareHost(url.hostname);
    return isIP(host) === 0 ? undefined : this.refuseAddress(host, host);
  }
}
