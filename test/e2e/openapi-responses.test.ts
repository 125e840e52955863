import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request, { type Response } from 'supertest';
import { buildOpenApiDocument } from '@bm/contracts';
import { phones, postCampaign, waitForCampaign } from '../support/campaigns';
import { waitFor } from '@bm/platform/testing';
import { inboundText, publishInbound } from '../support/events';
import { postSend, sendTemplate, waitForStatus } from '../support/messages';
import {
  ADMIN_TOKEN,
  createTenant,
  randomPhone,
  startStack,
  type Stack,
  type TenantFixture,
} from '../support/stack';

type Paths = Record<string, Record<string, { responses: Record<string, unknown> }>>;

/** Validates real answers against the schema the document gives for that operation and status. */
function responseValidator() {
  const document = buildOpenApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const paths = document.paths as Paths;
  const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

  return (path: string, method: string, res: Response): void => {
    const status = String(res.status);
    const operation = paths[path]?.[method];
    expect({ path, method, documented: operation !== undefined }).toEqual({ path, method, documented: true });
    expect({ path, method, status, documented: status in (operation?.responses ?? {}) }).toEqual({
      path,
      method,
      status,
      documented: true,
    });
    const ref = `openapi.json#/paths/${pointer(path)}/${method}/responses/${status}/content/application~1json/schema`;
    const validate = ajv.compile({ $ref: ref });
    const valid = validate(res.body);
    expect({ path, method, status, body: res.body as unknown, errors: validate.errors ?? [] }).toEqual({
      path,
      method,
      status,
      body: res.body as unknown,
      errors: [],
    });
    expect(valid).toBe(true);
  };
}

describe('real answers of the gateway match the OpenAPI document', () => {
  let stack: Stack;
  let t: TenantFixture;
  const check = responseValidator();

  beforeAll(async () => {
    stack = await startStack({ campaignEnv: {} });
    t = await createTenant(stack);
  });
  afterAll(() => stack.stop());

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
      'post',
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
