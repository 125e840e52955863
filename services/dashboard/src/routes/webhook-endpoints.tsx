import { useState, type FormEvent } from 'react';
import { useCan } from '../api/session';
import {
  useAddEndpoint,
  useDeleteEndpoint,
  useRotateEndpointSecret,
  useUpdateEndpoint,
  useWebhookEndpoints,
  type WebhookEndpoint,
} from '../api/webhooks';
import { CopyButton } from '../components/copy-button';
import { EventChecks, useEventChoice } from '../components/event-checks';
import { ErrorMessage, QueryState } from '../components/query-state';

/** A secret shown this once, with its copy button. */
function OnceSecret({ secret, name }: { secret: string; name: string }) {
  return (
    <div className="stack">
      <p role="status">Copy the signing secret of {name} now: it is shown only this once.</p>
      <span className="with-action">
        <code className="secret" data-testid="endpoint-secret">
          {secret}
        </code>
        <CopyButton value={secret} label={`Copy the signing secret of ${name}`} />
      </span>
    </div>
  );
}

/** URL, description and events of a new endpoint, or of one being edited. */
function EndpointFields({
  initial,
  submitLabel,
  onSubmit,
  pending,
}: {
  initial?: WebhookEndpoint;
  submitLabel: string;
  onSubmit: (v: { url: string; description: string | null; events: WebhookEndpoint['events'] }) => void;
  pending: boolean;
}) {
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const choice = useEventChoice(initial?.events ?? null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ url: url.trim(), description: description.trim() || null, events: choice.value() });
  };
  return (
    <form onSubmit={submit} className="stack" aria-label={submitLabel}>
      <label>
        {initial ? 'Endpoint URL' : 'New endpoint URL'}
        <input
          type="url"
          required
          placeholder="https://example.com/webhooks"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </label>
      <label>
        Description
        <input value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <EventChecks legend="Events it gets" choice={choice} />
      <button type="submit" className="primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}

function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateEndpoint();
  const remove = useDeleteEndpoint();
  const rotate = useRotateEndpointSecret();
  const can = useCan();
  const name = endpoint.description ?? endpoint.url;
  const error = update.error ?? remove.error ?? rotate.error;
  const confirmDelete = () => {
    if (window.confirm(`Delete the endpoint ${endpoint.url}? It gets no more events.`)) {
      remove.mutate(endpoint.endpoint_id);
    }
  };
  return (
    <li className="stack card" aria-label={`Endpoint ${name}`}>
      <div className="with-action">
        <code>{endpoint.url}</code>
        {endpoint.default && <span className="badge badge-active">default</span>}
        <span className={`badge badge-${endpoint.enabled ? 'delivered' : 'inactive'}`}>
          {endpoint.enabled ? 'enabled' : 'disabled'}
        </span>
      </div>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p className="muted">
        Events: {endpoint.events === null ? 'all' : endpoint.events.join(', ') || 'none'} · Secret:{' '}
        {endpoint.secret_set ? 'set' : 'none (sent unsigned)'}
      </p>
      {rotate.data && <OnceSecret secret={rotate.data.secret} name={name} />}
      {error && <ErrorMessage error={error} />}
      <div className="with-action" hidden={!can('updateWebhookEndpoint')}>
        <button
          type="button"
          className="small"
          aria-expanded={editing}
          onClick={() => setEditing(!editing)}
          aria-label={`Edit ${name}`}
        >
          Edit
        </button>
        <button
          type="button"
          className="small"
          disabled={rotate.isPending}
          onClick={() => rotate.mutate(endpoint.endpoint_id)}
          aria-label={`New signing secret for ${name}`}
        >
          New signing secret
        </button>
        <button
          type="button"
          className="small"
          disabled={update.isPending}
          onClick={() => update.mutate({ id: endpoint.endpoint_id, changes: { enabled: !endpoint.enabled } })}
          aria-label={`${endpoint.enabled ? 'Disable' : 'Enable'} ${name}`}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="small danger"
          disabled={remove.isPending}
          onClick={confirmDelete}
          aria-label={`Delete ${name}`}
        >
          Delete
        </button>
      </div>
      {editing && (
        <EndpointFields
          initial={endpoint}
          submitLabel={`Update ${name}`}
          pending={update.isPending}
          onSubmit={(changes) =>
            update.mutate({ id: endpoint.endpoint_id, changes }, { onSuccess: () => setEditing(false) })
          }
        />
      )}
    </li>
  );
}

function AddEndpoint() {
  const add = useAddEndpoint();
  // A new form after each add, so its fields start empty.
  const [round, setRound] = useState(0);
  return (
    <section className="stack" aria-labelledby="add-endpoint-heading">
      <h3 id="add-endpoint-heading">Add an endpoint</h3>
      {add.data && <OnceSecret secret={add.data.secret} name={add.data.description ?? add.data.url} />}
      {add.isError && <ErrorMessage error={add.error} />}
      <EndpointFields
        key={round}
        submitLabel="Add endpoint"
        pending={add.isPending}
        onSubmit={(v) => add.mutate(v, { onSuccess: () => setRound(round + 1) })}
      />
    </section>
  );
}

/** Every endpoint of the tenant: each gets the events its filter takes, signed with its own secret. */
export function EndpointsPanel() {
  const endpoints = useWebhookEndpoints();
  const can = useCan();
  return (
    <section className="stack card endpoints" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">All endpoints</h2>
      <p className="muted">
        Each event goes to every enabled endpoint whose events include it, signed with that endpoint’s own
        secret, and is retried on its own.
      </p>
      <QueryState query={endpoints} empty={null}>
        {(data) => (
          <>
            {data.endpoints.length === 0 ? (
              <p>No endpoint yet.</p>
            ) : (
              <ul className="endpoint-list" aria-label="Webhook endpoints">
                {data.endpoints.map((e) => (
                  <EndpointItem key={e.endpoint_id} endpoint={e} />
                ))}
              </ul>
            )}
            {!can('createWebhookEndpoint') ? null : data.endpoints.length < data.max_endpoints ? (
              <AddEndpoint />
            ) : (
              <p>The most endpoints allowed ({data.max_endpoints}) are set: delete one to add another.</p>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
