import { useEffect, useRef } from 'react';
import {
  useConversation,
  useMarkRead,
  useOlderMessages,
  useThread,
  useUpdateConversation,
  type Conversation,
} from '../api/conversations';
import { useChannelAccounts } from '../api/numbers';
import { useCan, useSession } from '../api/session';
import { useTeam, type TeamMember } from '../api/team';
import { customer, phone } from '../components/format';
import { MessageBubble } from '../components/message-bubble';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { Composer } from './inbox-composer';

/** Who it is assigned to, in words: you, a colleague by e-mail, or nobody. */
function assigneeText(
  assignee: string | null,
  me: string | undefined,
  team: TeamMember[] | undefined,
): string {
  if (assignee === null) return 'nobody';
  if (assignee === me) return 'you';
  return team?.find((u) => u.user_id === assignee)?.email ?? `a colleague (user ${assignee})`;
}

/** The customer, the number, status and assignee, and the actions on them. */
function ThreadHeader({ c }: { c: Conversation }) {
  const me = useSession().data?.user.user_id;
  const team = useTeam().data;
  const update = useUpdateConversation(c.id);
  const can = useCan();
  const number = useChannelAccounts().data?.find((a) => a.channel_account_id === c.channel_account_id);
  const who = customer(c.customer.phone, c.customer.user_id);
  return (
    <header className="thread-header stack">
      <h2 id="thread-heading">{c.customer.name ? `${c.customer.name} (${who})` : who}</h2>
      <dl className="facts">
        {c.customer.username && (
          <div>
            <dt>Username</dt>
            <dd>@{c.customer.username}</dd>
          </div>
        )}
        <div>
          <dt>Number</dt>
          <dd>{number ? phone(number.display_phone_number) : c.channel_account_id}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-testid="conversation-status">
            <StatusBadge status={c.status} />
          </dd>
        </div>
        <div>
          <dt>Assigned to</dt>
          <dd data-testid="conversation-assignee">{assigneeText(c.assignee, me, team)}</dd>
        </div>
      </dl>
      <div className="actions" hidden={!can('updateConversation')}>
        {me !== undefined && c.assignee !== me && (
          <button type="button" disabled={update.isPending} onClick={() => update.mutate({ assignee: me })}>
            Assign to me
          </button>
        )}
        {c.assignee !== null && (
          <button type="button" disabled={update.isPending} onClick={() => update.mutate({ assignee: null })}>
            Unassign
          </button>
        )}
        <label className="inline">
          Assign to
          <select
            value={c.assignee ?? ''}
            disabled={update.isPending || team === undefined}
            onChange={(e) => update.mutate({ assignee: e.target.value || null })}
          >
            <option value="">Nobody</option>
            {team
              ?.filter((u) => u.status === 'active' || u.user_id === c.assignee)
              .map((u) => (
                <option key={u.user_id} value={u.user_id}>
                  {u.user_id === me ? `${u.email} (you)` : u.email}
                </option>
              ))}
          </select>
        </label>
        {c.status === 'open' ? (
          <button
            type="button"
            disabled={update.isPending}
            onClick={() => update.mutate({ status: 'closed' })}
          >
            Close conversation
          </button>
        ) : (
          <button type="button" disabled={update.isPending} onClick={() => update.mutate({ status: 'open' })}>
            Reopen conversation
          </button>
        )}
      </div>
      {update.isError && <ErrorMessage error={update.error} />}
    </header>
  );
}

/** The messages, oldest first, kept scrolled to the newest as they arrive. */
function Messages({ c, live }: { c: Conversation; live: boolean }) {
  const thread = useThread(c.id, live);
  const older = useOlderMessages(c.id);
  const box = useRef<HTMLDivElement>(null);
  const count = thread.data?.messages.length ?? 0;
  const newest = thread.data?.messages.at(-1)?.created_at;
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [newest]);
  return (
    <div className="thread-messages" ref={box}>
      <QueryState query={thread} isEmpty={() => count === 0} empty="No messages yet.">
        {(data) => (
          <>
            {data.next_before !== null && (
              <button
                type="button"
                className="small"
                disabled={older.isPending}
                onClick={() => older.mutate(data.next_before!)}
              >
                Load older messages
              </button>
            )}
            <ol className="plain thread" aria-label="Messages" aria-live="polite">
              {data.messages.map((m, i) => (
                <MessageBubble
                  key={m.message_log_id ?? m.provider_message_id ?? i}
                  m={m}
                  accountId={c.channel_account_id}
                />
              ))}
            </ol>
          </>
        )}
      </QueryState>
    </div>
  );
}

/** The open conversation: marked read when shown and whenever the customer writes while it is shown. */
export function Thread({ id, live, onEscape }: { id: string; live: boolean; onEscape: () => void }) {
  const conversation = useConversation(id, live);
  const markRead = useMarkRead();
  const can = useCan();
  const mayMarkRead = can('markConversationRead');
  const mayReply = can('replyToConversation');
  const unread = conversation.data?.unread_count ?? 0;
  const activity = conversation.data?.last_activity_at;
  const { mutate } = markRead;
  // Once per new activity: a refused mark is not tried again in a loop.
  const tried = useRef('');
  useEffect(() => {
    const key = `${id}|${activity}`;
    if (mayMarkRead && unread > 0 && tried.current !== key) {
      tried.current = key;
      mutate(id);
    }
  }, [id, unread, activity, mutate, mayMarkRead]);
  return (
    <QueryState query={conversation} empty={null}>
      {(c) => (
        <article className="thread-pane" aria-labelledby="thread-heading">
          <ThreadHeader c={c} />
          <Messages c={c} live={live} />
          {mayReply && <Composer key={c.id} c={c} onEscape={onEscape} />}
        </article>
      )}
    </QueryState>
  );
}
