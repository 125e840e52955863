import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import type { AddressPolicy } from '../../domain/address-policy';

/** The connection was refused by the address policy (SSRF guard), not by the network. */
export class AddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';
}

/**
 * A DNS look-up that resolves every address of the name and refuses the connection when any of them is in a
 * reserved range (unless the name is allow-listed). The socket then connects to exactly the addresses checked
 * here, so a second, different DNS answer (rebinding) cannot slip in between check and connect.
 */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    lookup(hostname, all, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses
        .map((a) => policy.refuseAddress(hostname, a.address))
        .find((r) => r !== undefined);
      if (refused !== undefined || addresses.length === 0) {
        const reason = refused ?? 'no address';
        return callback(new AddressRefusedError(`${hostname} resolves to ${reason}`), '', 0);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** An undici connector that applies the address policy to literal IPs and, through the look-up, to names. */
export function guardedConnector(policy: AddressPolicy, timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: timeoutMs, lookup: guardedLookup(policy) });
  return (options, callback) => {
    // A literal IP is never looked up, so it is checked here (undici hands IPv6 over without brackets).
    const host = options.hostname;
    if (isIP(host) !== 0) {
      const refused = policy.refuseAddress(host, host);
      if (refused !== undefined) {
        callback(new AddressRefusedError(refused), null);
        return;
      }
    }
    connect(options, callback);
  };
}
