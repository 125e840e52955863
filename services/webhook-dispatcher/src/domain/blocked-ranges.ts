import { BlockList, isIP } from 'node:net';

// Ranges a webhook must never reach unless allow-listed: they lead into our own network, the machine itself or
// the cloud's metadata service (169.254.169.254), or are not meant to carry unicast traffic at all.
const RANGES: Array<[kind: string, cidr: string]> = [
  ['unspecified', '0.0.0.0/8'],
  ['private', '10.0.0.0/8'],
  ['shared address space', '100.64.0.0/10'],
  ['loopback', '127.0.0.0/8'],
  ['link-local', '169.254.0.0/16'],
  ['private', '172.16.0.0/12'],
  ['reserved', '192.0.0.0/24'],
  ['documentation', '192.0.2.0/24'],
  ['reserved', '192.88.99.0/24'],
  ['private', '192.168.0.0/16'],
  ['benchmarking', '198.18.0.0/15'],
  ['documentation', '198.51.100.0/24'],
  ['documentation', '203.0.113.0/24'],
  ['multicast', '224.0.0.0/4'],
  ['reserved', '240.0.0.0/4'],
  ['unspecified', '::/128'],
  ['loopback', '::1/128'],
  ['translated', '64:ff9b::/96'],
  ['translated', '64:ff9b:1::/48'],
  ['discard', '100::/64'],
  ['reserved', '2001::/23'],
  ['documentation', '2001:db8::/32'],
  ['6to4', '2002::/16'],
  ['unique-local', 'fc00::/7'],
  ['link-local', 'fe80::/10'],
  ['site-local', 'fec0::/10'],
  ['multicast', 'ff00::/8'],
];

const LISTS = new Map<string, BlockList>();
for (const [kind, cidr] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  const [network, prefix] = cidr.split('/');
  list.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
  LISTS.set(kind, list);
}

/** The eight 16-bit groups of an IPv6 address (any spelling: `::`, a trailing dotted quad, a zone id). */
function ipv6Groups(address: string): number[] {
  const bare = address.split('%')[0].toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  const hex = dotted
    ? `${bare.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${(
        (Number(dotted[3]) << 8) |
        Number(dotted[4])
      ).toString(16)}`
    : bare;
  const [head, tail] = hex.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

const dottedQuad = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address in `::/8` carries in its last 32 bits, whatever its spelling: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`) and IPv4-compatible (`::a.b.c.d`, which URL writes
 * `::7f00:1`). Undefined for any other address.
 */
function embeddedIpv4(
  groups: number[],
): { ipv4: string; form: 'mapped' | 'translated' | 'compatible' } | undefined {
  if (groups.length !== 8 || groups.slice(0, 4).some((g) => g !== 0)) return undefined;
  const ipv4 = dottedQuad(groups[6], groups[7]);
  if (groups[4] === 0 && groups[5] === 0xffff) return { ipv4, form: 'mapped' };
  if (groups[4] === 0xffff && groups[5] === 0) return { ipv4, form: 'translated' };
  if (groups[4] === 0 && groups[5] === 0) return { ipv4, form: 'compatible' };
  return undefined;
}

function listedKind(ip: string, type: 'ipv4' | 'ipv6'): string | undefined {
  for (const [kind, list] of LISTS) if (list.check(ip, type)) return kind;
  return undefined;
}

/**
 * The kind of reserved range an IP address is in (`loopback`, `private`, …), or undefined for a public one.
 * An IPv4-mapped address reaches the IPv4 host it embeds and is judged as that host. The rest of `::/8`
 * (IPv4-compatible and IPv4-translated forms, which some stacks also route to the embedded IPv4 host) is
 * reserved space: refused always, named by the embedded host's kind when it has one (`::127.0.0.1` loopback).
 */
export function blockedRangeOf(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 4) return listedKind(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) {
    return 'not an IP address';
  }
  const canonical = groups.map((g) => g.toString(16)).join(':');
  const own = listedKind(canonical, 'ipv6');
  if (own !== undefined) return own;
  const embedded = embeddedIpv4(groups);
  if (embedded) {
    const kind = listedKind(embedded.ipv4, 'ipv4');
    if (kind !== undefined || embedded.form !== 'mapped') return kind ?? `reserved (IPv4-${embedded.form})`;
    return undefined;
  }
  return groups[0] >> 8 === 0 ? 'reserved' : undefined;
}
