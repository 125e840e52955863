import { waitFor } from '@bm/platform/testing';
import axios, { type AxiosResponse } from 'axios';
import {
  APP_SECRET,
  bodyWith,
  TOKEN,
  uniquePhoneNumberId,
  uniqueRecipient,
  useSandbox,
} from './support/sandbox';
import { hasValidSignature } from './support/webhook-receiver';
import type { TemplatePage } from './support/wire-types';

describe('templates, subscriptions and the phone number', () => {
  const sbx = useSandbox();

  it('when paging.next is followed to the end, then every template is returned exactly once', async () => {
    const wabaId = `waba-paging-${uniquePhoneNumberId()}`;
    const all = await sbx.http.get<TemplatePage>(`/_sandbox/templates/${wabaId}`);

    const names: string[] = [];
    let next: string | undefined = `${sbx.url}/v21.0/${wabaId}/message_templates?limit=7`;
    let pages = 0;
    while (next !== undefined) {
      const page: AxiosResponse<TemplatePage> = await axios.get<TemplatePage>(next, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(page.data.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
      names.push(...page.data.data.map((t) => `${t.name}/${t.language}`));
      next = page.data.paging.next;
      if (next !== undefined)
        expect(next.startsWith(`${sbx.url}/v21.0/${wabaId}/message_templates?`)).toBe(true);
      pages += 1;
    }

    expect(all.data.data.length).toBeGreaterThanOrEqual(30);
    expect(pages).toBe(Math.ceil(all.data.data.length / 7));
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(all.data.data.map((t) => `${t.name}/${t.language}`).sort());
  });

  it('when no limit is given, then a page holds 25 templates', async () => {
    const res = await sbx.http.get<TemplatePage>(`/v21.0/waba-default-page/message_templates`);

    expect(res.data.data).toHaveLength(25);
    expect(res.data.paging.next).toEqual(expect.any(String));
  });

  it('when a template is created, then it answers PENDING and it is listed', async () => {
    const wabaId = `waba-create-${uniquePhoneNumberId()}`;

    const res = await sbx.http.post(`/v22.0/${wabaId}/message_templates`, {
      name: 'new_arrivals',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'New in: {{1}}' }],
    });
    const again = await sbx.http.post(`/v22.0/${wabaId}/message_templates`, {
      name: 'new_arrivals',
      language: 'en_US',
      category: 'MARKETING',
      components: [],
    });
    const listed = await sbx.http.get(`/v22.0/${wabaId}/message_templates`, {
      params: { name: 'new_arrivals' },
    });

    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      id: expect.stringMatching(/^\d+$/),
      status: 'PENDING',
      category: 'MARKETING',
    });
    expect(again.data.error.code).toBe(100);
    expect(listed.data.data).toEqual([expect.objectContaining({ id: res.data.id, status: 'PENDING' })]);
  });

  it('when a template is paused through the control endpoint, then a signed status webhook goes out and sends fail 132015', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const wabaId = `waba-pause-${phoneNumberId}`;
    await sbx.http.put(`/_sandbox/numbers/${phoneNumberId}`, { waba_id: wabaId });

    const patch = await sbx.http.patch(`/_sandbox/templates/${wabaId}/otp_code/en_US`, { status: 'PAUSED' });
    const send = await sbx.sendTemplate(phoneNumberId, uniqueRecipient(), {
      name: 'otp_code',
      components: [bodyWith('1')],
    });

    expect(patch.status).toBe(200);
    expect(send.data.error.code).toBe(132015);
    const webhook = await waitFor(() => sbx.receiver.received.find((r) => r.json.entry[0].id === wabaId), {
      what: 'template status webhook',
    });
    expect(hasValidSignature(webhook, APP_SECRET)).toBe(true);
    expect(webhook.json.entry[0]).toEqual({
      id: wabaId,
      time: expect.any(Number),
      changes: [
        {
          field: 'message_template_status_update',
          value: {
            event: 'PAUSED',
            message_template_id: expect.any(Number),
            message_template_name: 'otp_code',
            message_template_language: 'en_US',
            reason: 'NONE',
            message_template_category: 'AUTHENTICATION',
          },
        },
      ],
    });
  });

  it('when an app subscribes to a WABA, then it answers success and the subscription is recorded', async () => {
    const wabaId = `waba-sub-${uniquePhoneNumberId()}`;

    const res = await sbx.http.post(`/v21.0/${wabaId}/subscribed_apps`);
    const recorded = await sbx.http.get('/_sandbox/subscriptions');

    expect(res.status).toBe(200);
    expect(res.data).toEqual({ success: true });
    expect(recorded.data.data).toContainEqual(expect.objectContaining({ waba_id: wabaId }));
  });

  it('when templates are listed without a token, then it answers 190', async () => {
    const res = await axios.get(`${sbx.url}/v21.0/waba-x/message_templates`, { validateStatus: () => true });

    expect(res.status).toBe(401);
    expect(res.data.error.code).toBe(190);
  });
});
