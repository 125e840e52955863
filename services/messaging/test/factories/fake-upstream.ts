import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { uniqueSuffix } from '@bm/platform/testing';

/** One send the fake took: the number it went out from, the recipient, its wire body and the wamid answered. */
export interface UpstreamSend {
  phoneNumberId: string;
  to: string;
  body: Record<string, unknown>;
  wamid: string | null;
}

/**
 * How the fake answers the next send to a phone: an upstream error code, no answer at all (the request was
 * written, so its outcome is unknown), or the message accepted under a given wamid once `release` resolves.
 */
export type ScriptedAnswer =
  { error: number; message?: string } | { hang: true } | { wamid: string; release: Promise<void> };

/** The templates every WABA has: a UTILITY one without values and a MARKETING one with one body value. */
export const UPSTREAM_TEMPLATES = [
  {
    id: '9001',
    name: 'hello_world',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hello World' }],
  },
  {
    id: '9002',
    name: 'spring_sale',
    language: 'en_US',
    status: 'APPROVED',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hi {{1}}, our sale starts today.' }],
  },
];

const PATH = /^\/v[\d.]+\/([^/]+)\/(messages|message_templates|subscribed_apps)(?:\?.*)?$/;

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0
    ? {}
    : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
}

/** The upstream Cloud API over real HTTP: sends, a WABA's templates, template submission and subscription. */
export async function startFakeUpstream() {
  const sends: UpstreamSend[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const send = async (req: IncomingMessage, res: ServerResponse, phoneNumberId: string) => {
    const body = await bodyOf(req);
    const to = String(body.to);
    const answer = scripts.get(to)?.shift();
    const record: UpstreamSend = { phoneNumberId, to, body, wamid: null };
    sends.push(record);
    if (answer && 'hang' in answer) return;
    if (answer && 'error' in answer) {
      const error = { code: answer.error, message: answer.message ?? `error ${answer.error}` };
      return json(res, 400, { error });
    }
    if (answer) await answer.release;
    record.wamid = answer?.wamid ?? `wamid.fake.${uniqueSuffix()}`;
    json(res, 200, { messaging_product: 'whatsapp', messages: [{ id: record.wamid }] });
  };

  const submitted = new Map<string, string>();
  const submit = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await bodyOf(req);
    const id = `${Date.now()}${Math.floor(Math.random() * 1e4)}`;
    submitted.set(String(body.name), id);
    json(res, 200, { id, status: 'PENDING', category: body.category });
  };

  const server = createServer((req, res) => {
    const [, id, resource] = PATH.exec(req.url ?? '') ?? [];
    if (resource === 'messages' && req.method === 'POST') return void send(req, res, id);
    if (resource === 'message_templates' && req.method === 'GET')
      return json(res, 200, { data: UPSTREAM_TEMPLATES });
    if (resource === 'message_templates' && req.method === 'POST') return void submit(req, res);
    if (resource === 'subscribed_apps') return json(res, 200, { success: true });
    json(res, 404, { error: { code: 100, message: `no route ${req.method} ${req.url}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The sends to one phone, in the order they arrived. */
    sendsTo: (to: string) => sends.filter((s) => s.to === to),
    /** The upstream id the fake gave the template submitted under `name`. */
    templateIdOf: (name: string) => submitted.get(name),
    /** The next sends to `to` are answered like this, one answer each, then normally again. */
    script(to: string, ...answers: ScriptedAnswer[]) {
      scripts.set(to, [...(scripts.get(to) ?? []), ...answers]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FakeUpstream = Awaited<ReturnType<typeof startFakeUpstream>>;
