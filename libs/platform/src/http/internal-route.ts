import type { Request, Response } from 'express';
import { ok, type InternalEndpoint, type PathParams } from '@bm/contracts';
import { validate } from '../errors';
import type { RouteDefinition } from './routes';

/** What an internal route's handler gets: the path parameters and the input, validated by the contract. */
export interface InternalRequest<Params extends PathParams, Input> {
  params: Params;
  input: Input;
}

/**
 * The callee's side of an internal endpoint: mounted at the contract's method and path, its parameters and input
 * (the query of a GET, the JSON body otherwise) validated with the contract's schemas (422 VALIDATION_ERROR), and
 * the handler's answer sent in the envelope, typed as the contract says.
 */
export function internalRoute<Params extends PathParams, Input, Output>(
  endpoint: InternalEndpoint<Params, Input, Output>,
  handler: (request: InternalRequest<Params, Input>, res: Response) => Output | Promise<Output>,
): RouteDefinition {
  return {
    method: endpoint.method,
    path: endpoint.path,
    handlers: [
      async (req: Request, res: Response) => {
        const rawParams = req.params as Params;
        const params = endpoint.params ? validate(endpoint.params, rawParams) : rawParams;
        const rawInput: unknown = endpoint.method === 'GET' ? req.query : (req.body ?? {});
        const input = endpoint.input ? validate(endpoint.input, rawInput) : (undefined as Input);
        res.json(ok(await handler({ params, input }, res)));
      },
    ],
  };
}
