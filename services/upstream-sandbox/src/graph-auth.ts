import type { Request } from 'express';
import { GraphError } from './graph-errors';

/** The access token from `Authorization: Bearer <token>` or, as the Graph API also allows, `?access_token=`. */
export function accessToken(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match !== null) return match[1];
  const query = req.query.access_token;
  return typeof query === 'string' && query !== '' ? query : undefined;
}

/** Error 190 unless the request carries a token. */
export function requireToken(req: Request): void {
  if (accessToken(req) === undefined) throw GraphError.of(190);
}
