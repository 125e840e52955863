import request from 'supertest';
import { DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS, INTERNAL_HEADERS } from '@bm/contracts';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { allRecipients, phones, postCampaign, readCampaign, waitForCampaign } from '../support/campaigns';
import { collectEvents, inboundText, itemsOf, publishInbound, statusReport } from '../support/events';
import { orderUpdateData, postSend, sandboxSends } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

let stack: Stack;
let t: TenantFixture;

beforeAll(async () => {
  stack = await startStack({ campaignEnv: {} });
  t = await createTenant(stack, 'TIER_10K');
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe('POST /api/v1/campaigns', () => {
  it('answers 202 preparing, then drops duplicates and opt-outs, fails invalid phones and sends each once', async () => {
    const events = await collectEvents(stack, ['campaign.created', 'campaign.started', 'campaign.completed']);
    const [a, b, c, optedOut] = phones(4);
    await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(t.auth)
      .send({ phone: optedOut })
      .expect(201);
    const recipients = [
      { phone: `+${a}`, name: 'Ann' },
      { phone: b },
      { phone: `${b.slice(0, 1)} (${b.slice(1, 4)}) ${b.slice(4)}` },
      { phone: c, name: 'Carl' },
      { phone: optedOut },
      { phone: '12' },
    ];
    const res = await postCampaign(stack, t, { recipients, campaign_name: 'Launch' }).expect(202);
    expect(res.body).toEqual({
      success: true,
      data: {
        campaign_id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        name: 'Launch',
        status: 'preparing',
        message_type: 'template',
        requested_count: 6,
        total_count: 0,
        scheduled_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    const id = res.body.data.campaign_id as string;
    const done = await waitForCampaign(stack, t, id, ['completed']);
    expect(done).toMatchObject({ total_count: 4, sent_count: 3, failed_count: 1, failure_reason: null });
    const list = await allRecipients(stack, t, id);
    expect(list.map((r) => [r.phone, r.status])).toEqual([
      [a, 'sent'],
      [b, 'sent'],
      [c, 'sent'],
      ['12', 'failed'],
    ]);
    expect(list[0]).toEqual({
      phone: a,
      name: 'Ann',
      status: 'sent',
      message_log_id: expect.stringMatching(/^\d+$/),
      error_message: null,
      sent_at: expect.any(String),
    });
    expect(list[3]).toMatchObject({
      error_message: 'invalid phone number',
      message_log_id: null,
      sent_at: null,
    });
    for (const phone of [a, b, c]) expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(1);
    expect(await sandboxSends(stack, `to=${optedOut}`)).toHaveLength(0);
    const message = await request(stack.gatewayUrl)
      .get(`/api/v1/messages/${list[0].message_log_id as string}`)
      .set(t.auth)
      .expect(200);
    expect(message.body.data).toMatchObject({ campaign_id: id, to_phone: a });

    const mine = await waitFor(() => {
      const seen = events.filter((e) => e.payload.campaign_id === id);
      return seen.length >= 3 ? seen : undefined;
    });
    expect(mine.map((e) => [e.routingKey, e.payload.status, e.payload.total_count])).toEqual([
      ['campaign.created', 'pending', 4],
      ['campaign.started', 'processing', 4],
      ['campaign.completed', 'completed', 4],
    ]);
    expect(mine[2].payload).toMatchObject({ sent_count: 3, failed_count: 1, tenant_id: t.tenantId });
  }, 30_000);

  it('fills placeholders from template_params, overridden per recipient by variables, with the sample header', async () => {
    const [a, b] = phones(2);
    const res = await postCampaign(stack, t, {
      template_name: 'order_update',
      template_params: ['there', '#1'],
      recipients: [{ phone: a }, { phone: b, variables: { '1': 'Bea' } }],
    }).expect(202);
    await waitForCampaign(stack, t, res.body.data.campaign_id as string, ['completed']);
    const [toA] = await sandboxSends(stack, `to=${a}`);
    const [toB] = await sandboxSends(stack, `to=${b}`);
    const componentsOf = (send: { body: unknown }) =>
      (send.body as { template: { components: unknown[] } }).template.components;
    expect(componentsOf(toA)).toEqual([
      {
        type: 'header',
        parameters: [{ type: 'image', image: { link: 'https://example.com/sandbox/order.jpg' } }],
      },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'there' },
          { type: 'text', text: '#1' },
        ],
      },
    ]);
    expect(componentsOf(toB)[1]).toEqual({
      type: 'body',
      parameters: [
        { type: 'text', text: 'Bea' },
        { type: 'text', text: '#1' },
      ],
    });
  }, 30_000);

  it('accepts 50,000 recipients and refuses 50,001 with the field', async () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ phone: `1415${String(i).padStart(7, '0')}` }));
    const refused = await postCampaign(stack, t, { recipients: many(50_001) }).expect(422);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error.details.errors).toEqual([
      { field: 'recipients', message: expect.stringContaining('50000') },
    ]);
    const unlimited = await createTenant(stack, 'TIER_UNLIMITED');
    const accepted = await postCampaign(stack, unlimited, {
      recipients: many(50_000),
      scheduled_at: '2099-01-01T00:00:00Z',
    }).expect(202);
    expect(accepted.body.data).toMatchObject({
      requested_count: 50_000,
      total_count: 0,
      status: 'preparing',
    });
    const ready = await waitForCampaign(
      stack,
      unlimited,
      accepted.body.data.campaign_id as string,
      ['scheduled'],
      30_000,
    );
    expect(ready.total_count).toBe(50_000);
    await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${ready.campaign_id as string}/cancel`)
      .set(unlimited.auth)
      .expect(200, {
        success: true,
        data: { success: true, campaign_id: ready.campaign_id, status: 'cancelled' },
      });
  }, 60_000);

  it('answers 422 VALIDATION_ERROR with every bad field', async () => {
    const res = await postCampaign(stack, t, {
      message_type: 'text',
      // A row with neither phone nor user_id is an invalid recipient (CONTRACT.md, 2026); one with both is a bad field.
      recipients: [{ phone: randomPhone() }, { phone: randomPhone(), user_id: 'US.1' }, { phone: 5 }],
      campaign_name: 'x'.repeat(121),
      scheduled_at: '2020-01-01T00:00:00Z',
      timezone: 'Mars/Olympus',
    }).expect(422);
    const fields = (res.body.error.details.errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'message_type',
        'recipients[1]',
        'recipients[2].phone',
        'campaign_name',
        'timezone',
      ]),
    );
    const past = await postCampaign(stack, t, { scheduled_at: '2020-01-01T00:00:00Z' }).expect(422);
    expect(past.body.error.details.errors).toEqual([{ field: 'scheduled_at', message: expect.any(String) }]);
  });

  it('checks the template and the account as single sends do', async () => {
    const codeOf = async (body: Record<string, unknown>) =>
      (await postCampaign(stack, t, body)).body.error?.code as string;
    expect(await codeOf({ template_name: 'no_such_template' })).toBe('TEMPLATE_NOT_FOUND');
    expect(await codeOf({ template_name: 'promo_paused', template_params: ['x'] })).toBe('TEMPLATE_PAUSED');
    expect(await codeOf({ template_name: 'pending_tpl', template_params: ['x'] })).toBe(
      'TEMPLATE_NOT_APPROVED',
    );
    expect(await codeOf({ template_name: 'order_update', template_params: ['only one'] })).toBe(
      'TEMPLATE_PARAMETER_MISMATCH',
    );
    expect(await codeOf({ channel_account_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })).toBe('NO_ACTIVE_ACCOUNT');
  });

  it('plans without creating anything on ?dry_run=true', async () => {
    const res = await postCampaign(stack, t, { recipients: phones(3).map((phone) => ({ phone })) })
      .query({ dry_run: 'true' })
      .expect(200);
    expect(res.body.data).toMatchObject({
      dry_run: true,
      requested_count: 3,
      split: false,
      capacity: { daily_limit: 10_000 },
      parts: [{ part_number: 1, requested_count: 3, planned_at: null }],
      throughput_per_second: 80,
    });
  });
});

describe('campaign reads and controls', () => {
  it('is 404 CAMPAIGN_NOT_FOUND for another tenant, an unknown id and a malformed one', async () => {
    const other = await createTenant(stack, 'TIER_1K');
    const mine = await postCampaign(stack, t).expect(202);
    const id = mine.body.data.campaign_id as string;
    for (const [who, path] of [
      [other, `/api/v1/campaigns/${id}`],
      [other, `/api/v1/campaigns/${id}/recipients`],
      [t, '/api/v1/campaigns/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
      [t, '/api/v1/campaigns/not-an-id'],
    ] as const) {
      const res = await request(stack.gatewayUrl).get(path).set(who.auth).expect(404);
      expect(res.body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    }
    const cancel = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${id}/cancel`)
      .set(other.auth)
      .expect(404);
    expect(cancel.body.error.code).toBe('CAMPAIGN_NOT_FOUND');
  });

  it('cancels a scheduled campaign, and refuses once it has run (409 with the status)', async () => {
    const later = await postCampaign(stack, t, {
      scheduled_at: '2099-06-01T10:00:00',
      timezone: 'Asia/Riyadh',
    }).expect(202);
    expect(later.body.data.scheduled_at).toBe('2099-06-01T07:00:00.000Z');
    const laterId = later.body.data.campaign_id as string;
    await waitForCampaign(stack, t, laterId, ['scheduled']);
    await request(stack.gatewayUrl).post(`/api/v1/campaigns/${laterId}/cancel`).set(t.auth).expect(200);
    expect((await readCampaign(stack, t, laterId)).status).toBe('cancelled');

    const now = await postCampaign(stack, t).expect(202);
    const nowId = now.body.data.campaign_id as string;
    await waitForCampaign(stack, t, nowId, ['completed']);
    const refused = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${nowId}/cancel`)
      .set(t.auth)
      .expect(409);
    expect(refused.body.error).toMatchObject({
      code: 'CAMPAIGN_NOT_CANCELLABLE',
      details: { status: 'completed' },
    });
  }, 30_000);

  it('sends a scheduled campaign at its time', async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    const [phone] = phones(1);
    const res = await postCampaign(stack, t, { scheduled_at: at, recipients: [{ phone }] }).expect(202);
    const id = res.body.data.campaign_id as string;
    await waitForCampaign(stack, t, id, ['scheduled']);
    const done = await waitForCampaign(stack, t, id, ['completed']);
    const [send] = await sandboxSends(stack, `to=${phone}`);
    expect(new Date(send.at).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
    expect(done.sent_count).toBe(1);
  }, 30_000);

  it('when its messages are priced, then a campaign gives its estimate and what they cost so far, and the dry run the same estimate', async () => {
    // hello_world is UTILITY; the phones are +1 415…: the example card's market 1 price, 0.004 a message.
    const recipients = phones(3).map((phone) => ({ phone }));
    const plan = await postCampaign(stack, t, { recipients }).query({ dry_run: 'true' }).expect(200);
    expect(plan.body.data).toMatchObject({ estimated_cost: 0.012, cost_currency: 'USD' });

    const id = (await postCampaign(stack, t, { recipients }).expect(202)).body.data.campaign_id as string;
    expect(await waitForCampaign(stack, t, id, ['completed'])).toMatchObject({
      estimated_cost: 0.012,
      cost_amount: 0,
      cost_currency: 'USD',
    });
    // The upstream prices each message in its status reports, as the 2026 wire does (regular utility).
    const sent = await allRecipients(stack, t, id);
    for (const recipient of sent) {
      const message = await request(stack.gatewayUrl)
        .get(`/api/v1/messages/${recipient.message_log_id as string}`)
        .set(t.auth)
        .expect(200);
      await publishInbound(stack, 'inbound.status', {
        ...statusReport(t, message.body.data.provider_message_id as string, 'delivered'),
        pricing_category: 'utility',
        pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' },
      });
    }
    const priced = await waitFor(
      async () => {
        const campaign = await readCampaign(stack, t, id);
        return campaign.cost_amount === 0.012 ? campaign : undefined;
      },
      { what: "the campaign's messages priced" },
    );
    expect(priced).toMatchObject({ estimated_cost: 0.012, cost_amount: 0.012, cost_currency: 'USD' });
  });

  it('retries the failed recipients of a completed campaign, not invalid phones', async () => {
    const [failing, fine] = phones(2);
    const res = await postCampaign(stack, t, {
      recipients: [{ phone: failing }, { phone: 'bogus' }, { phone: fine }],
    }).expect(202);
    const id = res.body.data.campaign_id as string;
    expect(await waitForCampaign(stack, t, id, ['completed'])).toMatchObject({
      sent_count: 2,
      failed_count: 1,
    });
    // The upstream reports the message to `failing` undeliverable after accepting it: the recipient fails.
    const [sent] = (await allRecipients(stack, t, id, 'sent')).filter((r) => r.phone === failing);
    const message = await request(stack.gatewayUrl)
      .get(`/api/v1/messages/${sent.message_log_id as string}`)
      .set(t.auth);
    await publishInbound(
      stack,
      'inbound.status',
      statusReport(t, message.body.data.provider_message_id as string, 'failed', [
        { code: 131026, title: 'Message undeliverable' },
      ]),
    );
    const failed = await waitFor(async () =>
      (await allRecipients(stack, t, id, 'failed')).find((r) => r.phone === failing),
    );
    expect(failed.error_message).toEqual(expect.stringContaining('131026'));
    expect(await readCampaign(stack, t, id)).toMatchObject({
      sent_count: 1,
      failed_count: 2,
      total_count: 3,
    });

    const retry = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${id}/retry`)
      .set(t.auth)
      .expect(202);
    expect(retry.body.data).toMatchObject({ campaign_id: id, retried_count: 1 });
    await waitFor(async () => (await sandboxSends(stack, `to=${failing}`)).length === 2 || undefined);
    const again = await waitForCampaign(stack, t, id, ['completed']);
    expect(again).toMatchObject({ sent_count: 2, failed_count: 1, total_count: 3 });
    const [resent] = (await allRecipients(stack, t, id, 'sent')).filter((r) => r.phone === failing);
    expect(resent.message_log_id).not.toBe(sent.message_log_id);
    expect(await allRecipients(stack, t, id, 'failed')).toEqual([
      expect.objectContaining({ phone: 'bogus', error_message: 'invalid phone number' }),
    ]);
    const pending = await postCampaign(stack, t, { scheduled_at: '2099-01-01T00:00:00Z' }).expect(202);
    const refused = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${pending.body.data.campaign_id as string}/retry`)
      .set(t.auth)
      .expect(409);
    expect(refused.body.error.code).toBe('CAMPAIGN_NOT_RETRYABLE');
  }, 30_000);
});

describe('opt-outs', () => {
  /** A single send of the MARKETING template `order_update` (image header, two body values). */
  const marketingSend = (phone: string) =>
    postSend(stack, t, {
      phone,
      data: orderUpdateData('A', 'B'),
    });

  it('adds, lists and removes, and single MARKETING sends honour them', async () => {
    const phone = randomPhone();
    const added = await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(t.auth)
      .send({ phone: `+${phone}` })
      .expect(201);
    expect(added.body.data).toEqual({ phone, source: 'api', created_at: expect.any(String) });
    await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({ phone }).expect(200);
    const list = await request(stack.gatewayUrl).get('/api/v1/opt-outs').set(t.auth).expect(200);
    expect(list.body.data.opt_outs).toContainEqual(added.body.data);
    expect(list.body.data.pagination).toMatchObject({ current_page: 1, per_page: 50 });
    await waitFor(async () => {
      const res = await marketingSend(phone);
      return res.body.error?.code === 'RECIPIENT_OPTED_OUT' || undefined;
    });
    await request(stack.gatewayUrl)
      .delete(`/api/v1/opt-outs/${phone}`)
      .set(t.auth)
      .expect(200, {
        success: true,
        data: { phone, deleted: true },
      });
    const gone = await request(stack.gatewayUrl).delete(`/api/v1/opt-outs/${phone}`).set(t.auth).expect(404);
    expect(gone.body.error.code).toBe('OPT_OUT_NOT_FOUND');
    const bad = await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(t.auth)
      .send({ phone: '12' })
      .expect(422);
    expect(bad.body.error.details.errors[0].field).toBe('phone');
  });

  it('when an opt-out is added or removed, then the very next MARKETING send already honours it', async () => {
    const phone = randomPhone();
    await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({ phone }).expect(201);
    const refused = await marketingSend(phone).expect(422);
    expect(refused.body.error.code).toBe('RECIPIENT_OPTED_OUT');
    await request(stack.gatewayUrl).delete(`/api/v1/opt-outs/${phone}`).set(t.auth).expect(200);
    await marketingSend(phone).expect(202);

    // A customer's STOP: once the list shows it, sends see it too.
    const customer = randomPhone();
    await publishInbound(stack, 'inbound.message', inboundText(t, customer, 'STOP'));
    await waitFor(async () => {
      const res = await request(stack.gatewayUrl)
        .get('/api/v1/opt-outs')
        .query({ per_page: 100 })
        .set(t.auth);
      return (
        (res.body.data.opt_outs as Array<{ phone: string }>).some((o) => o.phone === customer) || undefined
      );
    });
    const afterStop = await marketingSend(customer).expect(422);
    expect(afterStop.body.error.code).toBe('RECIPIENT_OPTED_OUT');
  });

  it('when an older opt-out change reaches messaging after a newer one, then the newer one stands', async () => {
    const phone = randomPhone();
    await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({ phone }).expect(201);
    await request(stack.gatewayUrl).delete(`/api/v1/opt-outs/${phone}`).set(t.auth).expect(200);
    // The add's change, arriving late (its event behind the removal's direct call): version 1 is older than both.
    const setCopy = (body: { opted_out: boolean; version: number }) =>
      request(stack.messagingUrl)
        .put(`/internal/v1/opt-outs/${phone}`)
        .set({
          [INTERNAL_HEADERS.token]: testEnv().INTERNAL_TOKEN!,
          [INTERNAL_HEADERS.tenantId]: String(t.tenantId),
        })
        .send(body)
        .expect(200);
    await setCopy({ opted_out: true, version: 1 });
    await marketingSend(phone).expect(202);
    // A newer change still applies.
    await setCopy({ opted_out: true, version: Number.MAX_SAFE_INTEGER });
    const refused = await marketingSend(phone).expect(422);
    expect(refused.body.error.code).toBe('RECIPIENT_OPTED_OUT');
  });

  it('records STOP from the customer and removes it on START', async () => {
    const phone = randomPhone();
    const isOptedOut = async () => {
      const res = await request(stack.gatewayUrl)
        .get('/api/v1/opt-outs')
        .query({ per_page: 100 })
        .set(t.auth)
        .expect(200);
      return (res.body.data.opt_outs as Array<{ phone: string; source: string }>).find(
        (o) => o.phone === phone,
      );
    };
    await publishInbound(stack, 'inbound.message', inboundText(t, phone, '  stop '));
    expect(await waitFor(isOptedOut)).toMatchObject({ source: 'keyword' });
    await publishInbound(stack, 'inbound.message', inboundText(t, phone, 'START'));
    await waitFor(async () => ((await isOptedOut()) ? undefined : true));
  });
});

describe('status events by routing key', () => {
  it("when a single send and a campaign recipient's message are sent, then campaign's binding receives only the recipient's status events and the direct key only the single send's", async () => {
    type Event = Record<string, unknown>;
    // Bound as campaign's queue is (the event's name alone), and to the key of every other status event.
    const campaignBinding: Event[] = [];
    const directKey: Event[] = [];
    await stack.broker.consume(
      `e2e.campaign-like.${uniqueSuffix()}`,
      [DOMAIN_EVENTS.messageStatusUpdated],
      (m) => {
        campaignBinding.push(m.payload as Event);
        return Promise.resolve();
      },
    );
    await stack.broker.consume(
      `e2e.direct.${uniqueSuffix()}`,
      [DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS.messageStatusesUpdated],
      (m) => {
        directKey.push(...itemsOf(m.routingKey, m.payload as Event).map((e) => e.payload));
        return Promise.resolve();
      },
    );

    const single = (await postSend(stack, t).expect(202)).body.data.message_log_id as number;
    const campaign = (await postCampaign(stack, t).expect(202)).body.data.campaign_id as string;
    await waitForCampaign(stack, t, campaign, ['completed']);
    await waitFor(() => directKey.some((e) => e.message_log_id === single && e.status === 'sent'), {
      what: "the single send's sent event under the direct key",
    });
    await waitFor(() => campaignBinding.some((e) => e.campaign_id === campaign && e.status === 'sent'), {
      what: "the recipient's sent event under the event's name",
    });

    // One publish reaches every bound queue at once: what one queue got, the other would have got by now.
    expect(campaignBinding.filter((e) => e.message_log_id === single)).toEqual([]);
    expect(directKey.filter((e) => e.campaign_id === campaign)).toEqual([]);
    expect(campaignBinding.every((e) => e.campaign_recipient_id !== null)).toBe(true);
  });
});
