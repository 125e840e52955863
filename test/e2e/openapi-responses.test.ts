import request, { type Response } from 'supertest';
import {
  contact,
  entry,
  envelope as upstreamBody,
  messagesChange,
  sign,
  textMessage,
} from '../../services/webhook-ingress/test/factories/webhooks';
import { phones, postCampaign, waitForCampaign } from '../support/campaigns';
import { waitFor } from '@bm/platform/testing';
import { inboundText, publishInbound } from '../support/events';
import { startFullStack, type FullStack } from '../support/full-stack';
import { postSend, sendTemplate, waitForStatus } from '../support/messages';
import { answerProblems, answersChecked, operationIdOf } from '../support/openapi-check';
import { ADMIN_TOKEN, createTenant, randomPhone, type Stack, type TenantFixture } from '../support/stack';

/*
 * Every answer of the gateways the helpers start is checked against the document (support/openapi-check.ts).
 * This file holds that check to answers of every operation and of each kind of error, naming the operation each
 * answer must belong to, and shows that the check catches what departs from the document.
 */

/** The answer matches the document for this operation (a 405, for another method, against the path's 405). */
function check(path: string, method: string, res: Response): void {
  const answer = { method, path, route: path, status: res.status, headers: res.headers, text: res.text };
  const documented = res.status === 405 || operationIdOf(path, method) !== undefined;
  expect({ path, method, status: res.status, documented, problems: answerProblems(answer) }).toEqual({
    path,
    method,
    status: res.status,
    documented: true,
    problems: [],
  });
}

const json = { 'content-type': 'application/json; charset=utf-8' };
const envelope = (code: string) => JSON.stringify({ success: false, error: { code, message: 'x' } });

describe('the response check', () => {
  it('when an answer has a status its operation does not declare, then it is a problem', () => {
    const answer = {
      method: 'GET',
      path: '/api/v1/messages/7',
      status: 409,
      headers: json,
      text: envelope('CONFLICT'),
    };
    expect(answerProblems(answer)).toEqual([expect.stringMatching(/^status 409 not declared/)]);
  });

  it('when a body has a field its schema does not list, or lacks one, then it is a problem', () => {
    const ok = { opt_outs: [], pagination: { current_page: 1, per_page: 20, total: 0, last_page: 1 } };
    const base = { method: 'GET', path: '/api/v1/opt-outs?page=1', status: 200, headers: json };
    expect(answerProblems({ ...base, text: JSON.stringify({ success: true, data: ok }) })).toEqual([]);
    const extra = JSON.stringify({ success: true, data: { ...ok, more: 1 } });
    expect(answerProblems({ ...base, text: extra })).toEqual([
      expect.stringMatching(/additional properties/),
    ]);
    const missing = JSON.stringify({ success: true, data: { opt_outs: [] } });
    expect(answerProblems({ ...base, text: missing })).toEqual([expect.stringMatching(/pagination/)]);
  });

  it('when an error code travels with another status or outside the envelope, then it is a problem', () => {
    const unknownPath = { method: 'GET', path: '/api/v1/nope', headers: json };
    expect(answerProblems({ ...unknownPath, status: 404, text: envelope('NOT_FOUND') })).toEqual([]);
    expect(answerProblems({ ...unknownPath, status: 400, text: envelope('NOT_FOUND') })).toEqual([
      'NOT_FOUND answered with 400 (its status is 404)',
    ]);
    expect(answerProblems({ ...unknownPath, status: 200, text: '{}' })).toEqual([
      "status 200 outside the document's operations",
    ]);
    const wrongCode = { method: 'GET', path: '/api/v1/messages/1', status: 404, headers: json };
    expect(answerProblems({ ...wrongCode, text: envelope('CAMPAIGN_NOT_FOUND') })).not.toEqual([]);
    expect(answerProblems({ ...wrongCode, headers: { 'content-type': 'text/html' }, text: '<p>' })).toEqual([
      'content-type text/html not declared for 404',
    ]);
  });
});

describe('real answers of the gateway match the OpenAPI document', () => {
  // The full stack: its gateway also reaches webhook-ingress (the inbound audit log) and the dispatcher.
  let full: FullStack;
  let stack: Stack;
  let t: TenantFixture;

  beforeAll(async () => {
    full = await startFullStack();
    stack = full.stack;
    t = await createTenant(stack);
  });
  afterAll(() => full.stop());

  const api = () => request(stack.gatewayUrl);
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

  it('when a template is sent, read while queued and once sent, then the 202 and both 200s match', async () => {
    const accepted = await postSend(stack, t);
    check('/api/v1/messages/send', 'post', accepted);
    const id = accepted.body.data.message_log_id as number;
    check('/api/v1/messages/{id}', 'get', await api().get(`/api/v1/messages/${id}`).set(t.auth));
    await waitForStatus(stack, t, id, ['sent', 'delivered', 'read']);
    check('/api/v1/messages/{id}', 'get', await api().get(`/api/v1/messages/${id}`).set(t.auth));
  });

  it('when messages and templates are listed, then the lists match', async () => {
    await sendTemplate(stack, t);
    const messages = await api().get('/api/v1/messages?per_page=5').set(t.auth).expect(200);
    expect((messages.body.data.messages as unknown[]).length).toBeGreaterThan(0);
    check('/api/v1/messages', 'get', messages);
    const templates = await api().get('/api/v1/templates').set(t.auth).expect(200);
    expect((templates.body.data.templates as unknown[]).length).toBeGreaterThan(0);
    check('/api/v1/templates', 'get', templates);
  });

  it('when campaigns are created, read, listed, cancelled, refused and split, then the answers match', async () => {
    const created = await postCampaign(stack, t, { recipients: [{ phone: phones(1)[0] }, { phone: 'bad' }] });
    check('/api/v1/campaigns', 'post', created);
    const id = created.body.data.campaign_id as string;
    await waitForCampaign(stack, t, id, ['completed']);
    check('/api/v1/campaigns/{id}', 'get', await api().get(`/api/v1/campaigns/${id}`).set(t.auth));
    check(
      '/api/v1/campaigns/{id}/recipients',
      'get',
      await api().get(`/api/v1/campaigns/${id}/recipients`).set(t.auth),
    );
    check(
      '/api/v1/campaigns/{id}/cancel',
      'post',
      await api().post(`/api/v1/campaigns/${id}/cancel`).set(t.auth).expect(409),
    );
    check(
      '/api/v1/campaigns/{id}/retry',
      'post',
      await api().post(`/api/v1/campaigns/${id}/retry`).set(t.auth).expect(202),
    );
    check('/api/v1/campaigns/{id}', 'get', await api().get('/api/v1/campaigns/nope').set(t.auth).expect(404));
    const later = await postCampaign(stack, t, { scheduled_at: '2099-01-01T00:00:00Z' }).expect(202);
    await waitForCampaign(stack, t, later.body.data.campaign_id as string, ['scheduled']);
    check(
      '/api/v1/campaigns/{id}/cancel',
      'post',
      await api()
        .post(`/api/v1/campaigns/${later.body.data.campaign_id as string}/cancel`)
        .set(t.auth)
        .expect(200),
    );
    const small = await createTenant(stack, 'TIER_50');
    const list = phones(60).map((phone) => ({ phone }));
    check('/api/v1/campaigns', 'post', await postCampaign(stack, small, { recipients: list }).expect(429));
    check(
      '/api/v1/campaigns',
      'post',
      await postCampaign(stack, small, {
        recipients: list,
        split_across_days: true,
        campaign_name: 'Split',
      }).expect(202),
    );
    check('/api/v1/campaigns', 'post', await postCampaign(stack, t, { recipients: [] }).expect(422));
    check('/api/v1/campaigns', 'post', await postCampaign(stack, t).query({ dry_run: 'true' }).expect(200));
  }, 30_000);

  it('when opt-outs are added, listed and removed, then the answers match', async () => {
    const [phone] = phones(1);
    check(
      '/api/v1/opt-outs',
      'post',
      await api().post('/api/v1/opt-outs').set(t.auth).send({ phone }).expect(201),
    );
    check('/api/v1/opt-outs', 'get', await api().get('/api/v1/opt-outs').set(t.auth).expect(200));
    check(
      '/api/v1/opt-outs/{phone}',
      'delete',
      await api().delete(`/api/v1/opt-outs/${phone}`).set(t.auth).expect(200),
    );
    check(
      '/api/v1/opt-outs/{phone}',
      'delete',
      await api().delete(`/api/v1/opt-outs/${phone}`).set(t.auth).expect(404),
    );
  });

  it('when the gateway answers a test, then the answer is checked against the document', async () => {
    const before = answersChecked();
    await api().get('/api/health').expect(200);
    await api().get('/api/v1/no-such-route').set(t.auth).expect(404);
    expect(answersChecked()).toBe(before + 2);
  });

  it('when there is no API key, then the 401 matches', async () => {
    check('/api/v1/messages', 'get', await api().get('/api/v1/messages').expect(401));
  });

  it('when the message is unknown, then the 404 matches', async () => {
    check(
      '/api/v1/messages/{id}',
      'get',
      await api().get('/api/v1/messages/999999999').set(t.auth).expect(404),
    );
  });

  it('when a known path is called with another method, then the 405 matches', async () => {
    check(
      '/api/v1/messages/send',
      'delete',
      await api().delete('/api/v1/messages/send').set(t.auth).expect(405),
    );
  });

  it('when the send is invalid or the template unknown, then the 422s match', async () => {
    check('/api/v1/messages/send', 'post', await postSend(stack, t, { phone: '12' }).expect(422));
    check(
      '/api/v1/messages/send',
      'post',
      await postSend(stack, t, { data: { name: 'no_such_template' } }).expect(422),
    );
    check('/api/v1/messages', 'get', await api().get('/api/v1/messages?per_page=0').set(t.auth).expect(422));
  });

  it('when the operator creates a tenant and a key and reads health, then the answers match', async () => {
    const tenant = await api()
      .post('/admin/v1/tenants')
      .set(admin)
      .send({ name: 'openapi check' })
      .expect(201);
    check('/admin/v1/tenants', 'post', tenant);
    const id = tenant.body.data.tenant_id as number;
    check('/admin/v1/tenants/{tenantId}', 'get', await api().get(`/admin/v1/tenants/${id}`).set(admin));
    check(
      '/admin/v1/tenants/{tenantId}/api-keys',
      'post',
      await api().post(`/admin/v1/tenants/${id}/api-keys`).set(admin).expect(201),
    );
    check('/admin/v1/tenants', 'post', await api().post('/admin/v1/tenants').send({ name: 'x' }).expect(401));
    check('/api/health', 'get', await api().get('/api/health').expect(200));
  });

  it('when the operator lists, reads and reprocesses inbound deliveries, then the answers match', async () => {
    const operator = () => request(full.gatewayUrl);
    const from = randomPhone();
    // One customer text (an item) and a change ingress cannot read (a skipped part).
    const body = JSON.stringify(
      upstreamBody(
        entry(
          t.wabaId,
          messagesChange(t.phoneNumberId, {
            contacts: [contact(from, 'Customer')],
            messages: [textMessage(from, 'openapi audit')],
          }),
          { field: 'messages' },
        ),
      ),
    );
    const received = await operator()
      .post('/api/webhooks/channel')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', sign(body, full.ingress.service.deps.config.INGRESS_APP_SECRET))
      .send(body)
      .expect(200);
    check('/api/webhooks/channel', 'post', received);
    const id = received.body.data.event_id as string;

    const detail = await waitFor(
      async () => {
        const res = await operator().get(`/admin/v1/inbound-events/${id}`).set(admin).expect(200);
        return res.body.data.outcome !== 'pending' && res;
      },
      { what: 'the delivery split' },
    );
    expect(detail.body.data).toMatchObject({ outcome: 'processed', item_count: 1, skipped_count: 1 });
    check('/admin/v1/inbound-events/{id}', 'get', detail);
    check(
      '/admin/v1/inbound-events',
      'get',
      await operator().get('/admin/v1/inbound-events?outcome=processed&per_page=5').set(admin).expect(200),
    );
    check(
      '/admin/v1/inbound-events/{id}/reprocess',
      'post',
      await operator().post(`/admin/v1/inbound-events/${id}/reprocess`).set(admin).expect(200),
    );
    check(
      '/admin/v1/inbound-events/{id}',
      'get',
      await operator().get('/admin/v1/inbound-events/01ARZ3NDEKTSV4RRFFQ69G5FAV').set(admin).expect(404),
    );
  });

  it('when the operator revokes a key, twice, and an unknown one, then the answers match', async () => {
    const issued = await api().post(`/admin/v1/tenants/${t.tenantId}/api-keys`).set(admin).expect(201);
    const keyId = issued.body.data.key_id as string;
    for (let i = 0; i < 2; i += 1) {
      check(
        '/admin/v1/api-keys/{keyId}',
        'delete',
        await api().delete(`/admin/v1/api-keys/${keyId}`).set(admin).expect(200),
      );
    }
    check(
      '/admin/v1/api-keys/{keyId}',
      'delete',
      await api().delete('/admin/v1/api-keys/01ARZ3NDEKTSV4RRFFQ69G5FAV').set(admin).expect(404),
    );
  });

  it('when flows are created, read, listed, replaced, switched and their sessions listed, then the answers match', async () => {
    const flow = {
      channel_account_id: t.channelAccountId,
      name: 'Menu',
      trigger: { type: 'keyword', keywords: ['openapi-menu'] },
      steps: [
        {
          id: 'ask',
          type: 'send_buttons',
          body: 'Pick one',
          buttons: [{ id: 'a', title: 'A' }],
          next: 'wait',
        },
        {
          id: 'wait',
          type: 'wait_for_reply',
          save_as: 'pick',
          branches: [{ button_id: 'a', next: 'end' }],
          fallback: 'end',
        },
        { id: 'end', type: 'end' },
      ],
    };
    const created = await api().post('/api/v1/flows').set(t.auth).send(flow).expect(201);
    check('/api/v1/flows', 'post', created);
    const id = created.body.data.flow_id as string;
    check('/api/v1/flows/{id}', 'get', await api().get(`/api/v1/flows/${id}`).set(t.auth).expect(200));
    check(
      '/api/v1/flows/{id}',
      'put',
      await api().put(`/api/v1/flows/${id}`).set(t.auth).send(flow).expect(200),
    );
    check(
      '/api/v1/flows/{id}/activate',
      'post',
      await api().post(`/api/v1/flows/${id}/activate`).set(t.auth).expect(200),
    );
    check('/api/v1/flows', 'get', await api().get('/api/v1/flows?status=active').set(t.auth).expect(200));

    await publishInbound(stack, 'inbound.message', inboundText(t, randomPhone(), 'OpenAPI-Menu'));
    const sessions = await waitFor(
      async () => {
        const res = await api().get(`/api/v1/flows/${id}/sessions`).set(t.auth).expect(200);
        return (res.body.data.sessions as unknown[]).length > 0 && res;
      },
      { what: 'a session' },
    );
    check('/api/v1/flows/{id}/sessions', 'get', sessions);
    check(
      '/api/v1/flows/{id}/deactivate',
      'post',
      await api().post(`/api/v1/flows/${id}/deactivate`).set(t.auth).expect(200),
    );

    const dangling = { ...flow, steps: [{ ...flow.steps[0], next: 'nowhere' }, ...flow.steps.slice(1)] };
    check('/api/v1/flows', 'post', await api().post('/api/v1/flows').set(t.auth).send(dangling).expect(422));
    check(
      '/api/v1/flows/{id}',
      'get',
      await api().get('/api/v1/flows/01ARZ3NDEKTSV4RRFFQ69G5FAV').set(t.auth).expect(404),
    );
  });
});
