import { useState, type FormEvent } from 'react';
import {
  useDeliveries,
  useRotateSecret,
  useSaveWebhookSettings,
  useSendTest,
  useWebhookSettings,
  type WebhookSettings,
} from '../api/webhooks';
import { CopyButton } from '../components/copy-button';
import { EventChecks, useEventChoice } from '../components/event-checks';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { readableError } from '../components/webhook-error';
import { EndpointsPanel } from './webhook-endpoints';
import { useCan } from '../api/session';

function SettingsForm({ settings }: { settings: WebhookSettings }) {
  const save = useSaveWebhookSettings();
  const can = useCan();
  const [url, setUrl] = useState(settings.url ?? '');
  const choice = useEventChoice(settings.events);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ url: url.trim() === '' ? null : url.trim(), events: choice.value() });
  };
  return (
    <form onSubmit={submit} className="stack card" aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading">Default endpoint</h2>
      <p className="muted">The endpoint of the settings API and of Send Test.</p>
      <label>
        Webhook URL
        <input
          type="url"
          placeholder="https://example.com/webhooks"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </label>
      <EventChecks legend="Events to send" choice={choice} />
      {save.isError && <ErrorMessage error={save.error} />}
      {save.isSuccess && <p role="status">Saved.</p>}
      <button type="submit" className="primary" disabled={save.isPending} hidden={!can('putWebhookSettings')}>
        Save
      </button>
    </form>
  );
}

function SecretPanel({ secretSet }: { secretSet: boolean }) {
  const rotate = useRotateSecret();
  const can = useCan();
  const secret = rotate.data?.secret;
  return (
    <section className="stack card" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      {secret ? (
        <div className="stack">
          <p role="status">Copy the new secret now: it is shown only this once.</p>
          <span className="with-action">
            <code className="secret" data-testid="new-secret">
              {secret}
            </code>
            <CopyButton value={secret} label="Copy the signing secret" />
          </span>
        </div>
      ) : (
        <p>
          {secretSet ? <code>whsec_••••••••••••••••</code> : 'No secret yet: webhooks are sent unsigned.'}
        </p>
      )}
      {rotate.isError && <ErrorMessage error={rotate.error} />}
      <button
        type="button"
        onClick={() => rotate.mutate()}
        disabled={rotate.isPending}
        hidden={!can('rotateWebhookSecret')}
      >
        {secretSet || secret ? 'Rotate secret' : 'Generate secret'}
      </button>
    </section>
  );
}

function SendTestPanel() {
  const sendTest = useSendTest();
  const can = useCan();
  const deliveryId = sendTest.data?.delivery_id;
  // Follows the test's delivery until its outcome is known.
  const deliveries = useDeliveries(
    { event: 'webhook.test', per_page: 20 },
    { pollMs: deliveryId ? 1_000 : undefined },
  );
  const delivery = deliveries.data?.deliveries.find((d) => d.delivery_id === deliveryId);
  const last = delivery?.attempts.at(-1);
  return (
    <section className="stack card" aria-labelledby="test-heading">
      <h2 id="test-heading">Send Test</h2>
      <p className="muted">Sends a webhook.test event to the endpoint now.</p>
      {sendTest.isError && <ErrorMessage error={sendTest.error} />}
      {deliveryId && (
        <p role="status" data-testid="test-outcome">
          {delivery && delivery.status !== 'pending' ? (
            <>
              Test <StatusBadge status={delivery.status} />
              {last ? ` · HTTP ${last.http_status ?? '—'} in ${last.duration_ms ?? '—'} ms` : ''}
              {last?.error ? ` · ${readableError(last.error, last.http_status)}` : ''}
            </>
          ) : (
            'Test sent, waiting for the outcome…'
          )}
        </p>
      )}
      <button
        type="button"
        onClick={() => sendTest.mutate()}
        disabled={sendTest.isPending}
        hidden={!can('sendWebhookTest')}
      >
        Send Test
      </button>
    </section>
  );
}

/** The default endpoint (the settings'), its signing secret and Send Test; then every endpoint of the tenant. */
export function WebhooksScreen() {
  const settings = useWebhookSettings();
  return (
    <>
      <h1>Webhooks</h1>
      <QueryState query={settings} empty={null}>
        {(s) => (
          <div className="grid">
            <SettingsForm settings={s} />
            <SecretPanel secretSet={s.secret_set} />
            <SendTestPanel />
          </div>
        )}
      </QueryState>
      <EndpointsPanel />
    </>
  );
}
