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

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** The kind of reserved range an IP address is in (`loopback`, `private`, …), or undefined for a public one. */
export function blockedRangeOf(address: string): string | undefined {
  // An IPv4-mapped IPv6 address reaches the IPv4 host it embeds.
  const mapped = MAPPED_V4.exec(address);
  const ip = mapped ? mapped[1] : address;
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 6 ? 'ipv6' : 'ipv4';
  for (const [kind, list] of LISTS) if (list.check(ip, type)) return kind;
  return undefined;
}
