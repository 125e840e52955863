import { uniqueRecipient, useSandbox } from './support/sandbox';

describe('DELETE /_sandbox/state', () => {
  const sbx = useSandbox({ SANDBOX_STATUS_DELAYS_MS: '5000' });

  it('when the state is reset, then sends, faults, numbers and pending reports are forgotten', async () => {
    const phoneNumberId = await sbx.registerNumber({ waba_id: 'waba-reset', mps: 1 });
    await sbx.http.post('/_sandbox/faults', { match: { phone_number_id: phoneNumberId }, delay_ms: 1 });
    await sbx.sendText(phoneNumberId, uniqueRecipient());

    const reset = await sbx.http.delete('/_sandbox/state');

    expect(reset.status).toBe(204);
    expect((await sbx.http.get('/_sandbox/numbers')).data.data).toEqual([]);
    expect((await sbx.http.get('/_sandbox/faults')).data.data).toEqual([]);
    expect((await sbx.http.get('/_sandbox/sends/count')).data.count).toBe(0);
    expect(sbx.sandbox.state.webhooks).toEqual([]);
    // The cap of 1 is gone with the number: two sends in a row pass.
    expect((await sbx.sendText(phoneNumberId, uniqueRecipient())).status).toBe(200);
    expect((await sbx.sendText(phoneNumberId, uniqueRecipient())).status).toBe(200);
  });
});
