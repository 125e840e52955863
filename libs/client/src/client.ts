import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi';

export const CSRF_HEADER = 'X-CSRF-Token';

export interface BmClientOptions {
  /** The gateway's origin (`http://localhost:3000`); '' in a page the gateway serves. */
  baseUrl: string;
  /** `bm_live_...`: for servers. A browser page signed in to the dashboard sends its cookie instead. */
  apiKey?: string;
  /** The dashboard session's CSRF token, sent on every POST, PUT, PATCH and DELETE. */
  csrfToken?: () => string | undefined;
  /** Another fetch (tests, a proxy agent); the global one by default. */
  fetch?: typeof fetch;
}

/** The typed client: every path, parameter and body of the API, checked by TypeScript. */
export type BmClient = Client<paths>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A client of the Business Messaging API, typed from the OpenAPI document the gateway serves. */
export function createBmClient(options: BmClientOptions): BmClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: options.apiKey === undefined ? {} : { Authorization: `Bearer ${options.apiKey}` },
    credentials: 'same-origin',
  });
  const csrfToken = options.csrfToken;
  if (csrfToken !== undefined) {
    client.use({
      onRequest({ request }) {
        const token = csrfToken();
        if (!SAFE_METHODS.has(request.method) && token !== undefined) request.headers.set(CSRF_HEADER, token);
        return request;
      },
    });
  }
  return client;
}
