import { useState } from 'react';
import type { ConversationMessage } from '../api/conversations';

type Media = NonNullable<ConversationMessage['media']>;

/** Where the browser fetches a message's media: the API streams it from the upstream with the number's token. */
export const mediaHref = (mediaId: string, channelAccountId: string) =>
  `/api/v1/media/${encodeURIComponent(mediaId)}?channel_account_id=${encodeURIComponent(channelAccountId)}`;

// Our message's status as ticks (the word beside them carries the meaning, never the marks alone).
const TICKS: Record<string, string> = {
  queued: '🕓',
  scheduled: '🕓',
  sent: '✓',
  delivered: '✓✓',
  read: '✓✓',
  failed: '!',
  cancelled: '×',
};

function Ticks({ status, error }: { status: string; error: string | null }) {
  return (
    <span className={`ticks ticks-${status}`} data-testid="message-status">
      <span aria-hidden="true">{TICKS[status] ?? ''}</span> {status}
      {error && <span className="error"> · {error}</span>}
    </span>
  );
}

/** An image, opening full size in a tab, that says so when the media cannot be fetched (the upstream keeps media
 * for a while only). */
function InlineImage({ src, alt }: { src: string; alt: string }) {
  const [broken, setBroken] = useState(false);
  return (
    <>
      <a href={src} target="_blank" rel="noreferrer">
        <img className="media-image" src={src} alt={alt} loading="lazy" onError={() => setBroken(true)} />
      </a>
      {broken && <span className="muted small">The image could not be loaded.</span>}
    </>
  );
}

function MediaView({ m, media, accountId }: { m: ConversationMessage; media: Media; accountId: string }) {
  const kind = m.type === 'sticker' ? 'image' : (media.mime_type?.split('/')[0] ?? m.type);
  const label = media.caption ?? media.filename ?? `${m.type} from the customer`;
  if (media.id === null) {
    // Our own media sent by link: another origin, which the page's policy does not load inline.
    return media.url ? (
      <a href={media.url} target="_blank" rel="noreferrer">
        Open the {m.type}
      </a>
    ) : (
      <span className="muted">{m.type} without a media id</span>
    );
  }
  const href = mediaHref(media.id, accountId);
  if (m.type === 'image' || m.type === 'sticker' || (m.type !== 'document' && kind === 'image')) {
    return <InlineImage src={href} alt={label} />;
  }
  if (m.type === 'audio' || kind === 'audio') {
    return <audio className="media-audio" controls preload="none" src={href} aria-label={label} />;
  }
  if (m.type === 'video' || kind === 'video') {
    return <video className="media-video" controls preload="none" src={href} aria-label={label} />;
  }
  return (
    <a href={href} download={media.filename ?? true}>
      Download {media.filename ?? `the ${m.type}`}
    </a>
  );
}

function Content({ m, accountId }: { m: ConversationMessage; accountId: string }) {
  const parts = [];
  if (m.template) {
    parts.push(
      <span key="template" className="muted small">
        Template {m.template.name} ({m.template.language})
      </span>,
    );
  }
  if (m.media) parts.push(<MediaView key="media" m={m} media={m.media} accountId={accountId} />);
  if (m.text) {
    parts.push(
      <p key="text" className="text">
        {m.text}
      </p>,
    );
  }
  if (m.location) {
    const { latitude, longitude, name, address } = m.location;
    parts.push(
      <p key="location" className="text">
        Location: {[name, address].filter(Boolean).join(', ')}{' '}
        {latitude !== null && longitude !== null && (
          <a
            href={`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}`}
            target="_blank"
            rel="noreferrer"
          >
            {latitude}, {longitude}
          </a>
        )}
      </p>,
    );
  }
  if (m.contacts) {
    const names = m.contacts.map((c) => {
      const name = (c as { name?: { formatted_name?: string } }).name;
      return name?.formatted_name ?? 'a contact';
    });
    parts.push(<p key="contacts">Shared contacts: {names.join(', ')}</p>);
  }
  if (m.reaction) parts.push(<p key="reaction">Reacted {m.reaction.emoji ?? '(removed)'}</p>);
  if (m.reply) parts.push(<p key="reply">Chose “{m.reply.title ?? m.reply.payload ?? m.reply.id}”</p>);
  if (parts.length === 0) {
    parts.push(
      <details key="raw">
        <summary>A {m.type} message</summary>
        <pre className="raw">{JSON.stringify(m.raw, null, 2)}</pre>
      </details>,
    );
  }
  return <>{parts}</>;
}

const time = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** One message of a thread: the customer's on the left, ours on the right with its status. */
export function MessageBubble({ m, accountId }: { m: ConversationMessage; accountId: string }) {
  return (
    <li className={`bubble bubble-${m.direction}`}>
      <span className="sr-only">{m.direction === 'inbound' ? 'Customer:' : 'We sent:'} </span>
      <Content m={m} accountId={accountId} />
      <span className="bubble-meta">
        <time dateTime={m.created_at}>{time(m.created_at)}</time>
        {m.status !== null && <Ticks status={m.status} error={m.error_message} />}
      </span>
    </li>
  );
}
