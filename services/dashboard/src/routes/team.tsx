import { rolesUpTo, type Role } from '@bm/client';
import { useState, type FormEvent } from 'react';
import { useCan, useSession } from '../api/session';
import { useChangeRole, useInviteMember, useRemoveMember, useTeam, type TeamMember } from '../api/team';
import { CopyButton } from '../components/copy-button';
import { DataTable, type Column } from '../components/data-table';
import { when } from '../components/format';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';

const ALL_ROLES: Role[] = ['viewer', 'agent', 'admin', 'owner'];

function InviteForm({ myRole }: { myRole: Role }) {
  const invite = useInviteMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };
  return (
    <form className="stack card" onSubmit={submit} aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a colleague</h2>
      <label>
        Email
        <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {rolesUpTo(myRole).map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      {invite.isError && <ErrorMessage error={invite.error} />}
      {invite.data && (
        <div className="stack">
          <p role="status">
            Invited {invite.data.email} as {invite.data.role}. Send them this link now: it is shown only this
            once and works once, for 24 hours.
          </p>
          <span className="with-action">
            <code className="secret" data-testid="invite-link">
              {invite.data.invite_url}
            </code>
            <CopyButton value={invite.data.invite_url} label="Copy the invite link" />
          </span>
        </div>
      )}
      <button type="submit" className="primary" disabled={invite.isPending}>
        Invite
      </button>
    </form>
  );
}

function RoleCell({ member, editable }: { member: TeamMember; editable: boolean }) {
  const change = useChangeRole();
  if (!editable) return <>{member.role}</>;
  return (
    <>
      <select
        aria-label={`Role of ${member.email}`}
        value={member.role}
        disabled={change.isPending}
        onChange={(e) => change.mutate({ userId: member.user_id, role: e.target.value as Role })}
      >
        {ALL_ROLES.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      {change.isError && <ErrorMessage error={change.error} />}
    </>
  );
}

function RemoveButton({ member }: { member: TeamMember }) {
  const remove = useRemoveMember();
  const confirmAndRemove = () => {
    if (window.confirm(`Remove ${member.email}? They are signed out at once.`)) remove.mutate(member.user_id);
  };
  return (
    <>
      <button
        type="button"
        className="small danger"
        onClick={confirmAndRemove}
        disabled={remove.isPending}
        aria-label={`Remove ${member.email}`}
      >
        Remove
      </button>
      {remove.isError && <ErrorMessage error={remove.error} />}
    </>
  );
}

/** The tenant's dashboard users: invite (owners and admins), change roles and remove (owners). */
export function TeamScreen() {
  const team = useTeam();
  const can = useCan();
  const myRole = useSession().data?.user.role;
  const manage = can('updateTeamMember');
  const columns: Column<TeamMember>[] = [
    { header: 'Email', cell: (m) => m.email },
    { header: 'Role', cell: (m) => <RoleCell member={m} editable={manage} /> },
    { header: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
    { header: 'Since', cell: (m) => when(m.created_at) },
    ...(can('removeTeamMember')
      ? [{ header: 'Action', cell: (m: TeamMember) => <RemoveButton member={m} /> }]
      : []),
  ];
  return (
    <>
      <h1>Team</h1>
      {myRole && can('inviteTeamMember') && <InviteForm myRole={myRole} />}
      <QueryState query={team} isEmpty={(rows) => rows.length === 0} empty={<p>No one yet.</p>}>
        {(rows) => <DataTable caption="Team" columns={columns} rows={rows} rowKey={(m) => m.user_id} />}
      </QueryState>
    </>
  );
}
