import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudApiClient } from '../src/data-access/upstream/cloud-api.client';

/*
 * Another implementation of the upstream wire than the sandbox may answer in ways the Graph API does not but a
 * client should take: 201 for a created template, a template list without paging, 204 for a subscription.
 */
describe('the upstream adapter with answers the Graph API does not give', () => {
  let server: Server;
  let client: CloudApiClient;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const json = (status: number, body?: unknown) =>
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(body === undefined ? undefined : JSON.stringify(body));
      if (req.method === 'POST' && req.url?.endsWith('/message_templates')) json(201, { id: 42 });
      else if (req.method === 'GET' && req.url?.includes('/message_templates'))
        json(200, [
          { id: '1', name: 'hello_world', language: 'en_US', status: 'APPROVED', category: 'UTILITY' },
        ]);
      else if (req.method === 'POST' && req.url?.endsWith('/subscribed_apps')) json(204);
      else json(404, { error: { code: 100, message: 'unknown path' } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new CloudApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'v21.0', 2_000);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('when a template is created with 201 and a numeric id, then it is accepted as PENDING with that id', async () => {
    await expect(
      client.createTemplate('waba', 'token', { name: 'x', category: 'MARKETING' }),
    ).resolves.toEqual({ ok: true, id: '42', status: 'PENDING', category: 'MARKETING' });
  });

  it('when templates come as a bare list, then that list is the one page', async () => {
    const templates = await client.listTemplates('waba', 'token');
    expect(templates.map((t) => t.name)).toEqual(['hello_world']);
  });

  it('when the subscription answers 204, then it counts as subscribed', async () => {
    await expect(client.subscribeApp('waba', 'token')).resolves.toBeUndefined();
  });
});
