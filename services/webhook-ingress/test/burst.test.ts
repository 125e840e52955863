import { useIngress } from './factories/ingress';
import { numberBody, statusReport, upstreamId, wamid } from './factories/webhooks';

describe('bursts: deliveries stored together and split in batches', () => {
  const phoneNumberId = upstreamId();
  const ingress = useIngress({ numbers: [phoneNumberId] });

  const receipt = (id: string, status: string) =>
    numberBody(phoneNumberId, { statuses: [statusReport(id, status, upstreamId())] });

  it('when a hundred deliveries arrive at once, some repeating others, then each is stored and accounted for and each report goes out with each delivery of it', async () => {
    // The number's owner known, every delivery is split on receipt.
    const first = await ingress.postJson(receipt(wamid(), 'sent')).expect(200);
    await ingress.splitEvent(first.body.data.event_id as string);
    const ids = Array.from({ length: 60 }, () => wamid());
    const bodies = [
      ...ids.map((id) => JSON.stringify(receipt(id, 'delivered'))),
      // The upstream's retries: the very same bytes again, within the same burst.
      ...ids.slice(0, 40).map((id) => JSON.stringify(receipt(id, 'delivered'))),
    ];
    const answers = await Promise.all(bodies.map((raw) => ingress.post(raw)));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    const eventIds = answers.map((a) => a.body.data.event_id as string);
    expect(new Set(eventIds).size).toBe(bodies.length);
    for (const raw of bodies.slice(0, 60)) expect(await ingress.storedWithBody(raw)).toBeGreaterThan(0);
    await ingress.settle();

    // A receipt needs no dedupe key (a repeated status changes nothing): each delivery sends its own.
    for (const [n, id] of ids.entries()) {
      expect(ingress.publishedWith('provider_message_id', id)).toHaveLength(n < 40 ? 2 : 1);
    }
    const events = await Promise.all(eventIds.map((id) => ingress.eventOf(id)));
    expect(events.filter((e) => e.outcome === 'processed')).toHaveLength(100);
    for (const e of events) expect(e).toMatchObject({ published_count: 1, duplicate_count: 0 });
  });
});
