import request from 'supertest';
import { CONSUMER_QUEUES } from '@bm/contracts';
import { AmqpClient, AppError, createLogger, type ConsumedMessage } from '@bm/platform';
import { freePort, testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { ADMIN_TOKEN, startGateway, type TestGateway } from './factories/gateway';

/*
 * The operator's dead-letter commands. The gateway gets an AMQP prefix of its own, so the consumer queues it
 * looks at are this file's alone; a consumer in the test stands in for the service that owns the queue.
 */
const env = testEnv();
const prefix = `${env.AMQP_PREFIX}.dlq${uniqueSuffix()}`;
const QUEUE = 'campaign.opt-out-keywords';
const admin = (r: request.Test) => r.set('Authorization', `Bearer ${ADMIN_TOKEN}`);

let gw: TestGateway;
let consumer: AmqpClient;
let fixed = false;
const handled: ConsumedMessage[] = [];

beforeAll(async () => {
  gw = await startGateway({ AMQP_PREFIX: prefix });
  consumer = new AmqpClient({
    url: env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    prefix,
    logger: createLogger('dlq-test', 'silent'),
    queueExpiresMs: Number(env.AMQP_QUEUE_EXPIRES_MS),
    maxDeliveries: 2,
    retryDelayMs: 30,
  });
  await consumer.connect();
  // Refuses every message until the test "deploys the fix".
  await consumer.consume(QUEUE, [`test.${prefix}.keyword`], async (message) => {
    await Promise.resolve();
    if (!fixed) throw new AppError('VALIDATION_ERROR');
    handled.push(message);
  });
});
afterAll(async () => {
  await consumer.close();
  await gw.stop();
});

it('when messages are dead-lettered, then the list, show and replay commands report and move them through the consumer again', async () => {
  for (const n of [1, 2, 3]) {
    await consumer.publish(`test.${prefix}.keyword`, { n }, { messageId: `kw-${n}` });
  }
  const parked = async () => {
    const res = await admin(request(gw.url).get('/admin/v1/dead-letters')).expect(200);
    return res.body.data.queues as Array<{ queue: string; service: string; dead_letters: number }>;
  };
  await waitFor(async () => (await parked()).find((q) => q.queue === QUEUE)?.dead_letters === 3, {
    what: 'three dead letters',
  });
  const queues = await parked();
  expect(queues.map((q) => q.queue)).toEqual(Object.keys(CONSUMER_QUEUES));
  expect(queues.filter((q) => q.dead_letters > 0)).toEqual([
    { queue: QUEUE, service: 'campaign', dead_letters: 3 },
  ]);

  const shown = await admin(request(gw.url).get(`/admin/v1/dead-letters/${QUEUE}?limit=2`)).expect(200);
  expect(shown.body.data).toMatchObject({ queue: QUEUE, service: 'campaign', dead_letters: 3 });
  expect(shown.body.data.messages).toEqual(
    [1, 2].map((n) => ({
      message_id: `kw-${n}`,
      routing_key: `test.${prefix}.keyword`,
      attempts: 2,
      error: 'The request is invalid',
      published_at: expect.any(String),
      replays: 0,
      payload: { n },
    })),
  );
  // Shown, not taken.
  expect((await parked()).find((q) => q.queue === QUEUE)?.dead_letters).toBe(3);

  fixed = true;
  const first = await admin(request(gw.url).post(`/admin/v1/dead-letters/${QUEUE}/replay?limit=2`)).expect(
    200,
  );
  expect(first.body.data).toEqual({ queue: QUEUE, replayed: 2, remaining: 1 });
  const rest = await admin(request(gw.url).post(`/admin/v1/dead-letters/${QUEUE}/replay`)).expect(200);
  expect(rest.body.data).toEqual({ queue: QUEUE, replayed: 1, remaining: 0 });

  await waitFor(() => handled.length === 3, { what: 'the replayed messages handled' });
  // The same message ids (the consumers' dedupe key), the event's own routing key, a fresh attempt count.
  expect(handled.map((m) => [m.messageId, m.routingKey, m.attempt, m.payload])).toEqual(
    [1, 2, 3].map((n) => [`kw-${n}`, `test.${prefix}.keyword`, 1, { n }]),
  );
  expect((await parked()).find((q) => q.queue === QUEUE)?.dead_letters).toBe(0);
});

it('when the queue is not a consumer queue or the limit is out of range, then 404 QUEUE_NOT_FOUND or 422', async () => {
  const unknown = await admin(request(gw.url).get('/admin/v1/dead-letters/no.such-queue')).expect(404);
  expect(unknown.body.error.code).toBe('QUEUE_NOT_FOUND');
  const replayUnknown = await admin(request(gw.url).post('/admin/v1/dead-letters/toString/replay')).expect(
    404,
  );
  expect(replayUnknown.body.error.code).toBe('QUEUE_NOT_FOUND');
  const bad = await admin(request(gw.url).get(`/admin/v1/dead-letters/${QUEUE}?limit=0`)).expect(422);
  expect(bad.body.error.details.errors[0].field).toBe('query.limit');
  const anonymous = await request(gw.url).get('/admin/v1/dead-letters').expect(401);
  expect(anonymous.body.error.code).toBe('INVALID_API_KEY');
});

it('when the broker cannot be reached, then the commands answer 503 SERVICE_UNAVAILABLE', async () => {
  const offline = await startGateway({ AMQP_URL: `amqp://guest:guest@127.0.0.1:${await freePort()}` });
  try {
    const res = await admin(request(offline.url).get('/admin/v1/dead-letters')).expect(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  } finally {
    await offline.stop();
  }
});
