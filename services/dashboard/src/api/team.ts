import { unwrap, type components, type Role } from '@bm/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './refreshing-mutation';

export type TeamMember = components['schemas']['TeamMember'];
export type AuditLogEntry = components['schemas']['AuditLogEntry'];
const teamKey = ['team'] as const;

export function useTeam() {
  return useQuery({
    queryKey: teamKey,
    queryFn: async () => unwrap(await api.GET('/api/v1/users')).users,
  });
}

/** Invites a colleague; the answer holds the invite link, shown this once. */
export function useInviteMember() {
  return useRefreshingMutation(teamKey, async (body: { email: string; role: Role }) =>
    unwrap(await api.POST('/api/v1/users', { body })),
  );
}

export function useChangeRole() {
  return useRefreshingMutation(teamKey, async ({ userId, role }: { userId: string; role: Role }) =>
    unwrap(await api.PATCH('/api/v1/users/{userId}', { params: { path: { userId } }, body: { role } })),
  );
}

export function useRemoveMember() {
  return useRefreshingMutation(teamKey, async (userId: string) =>
    unwrap(await api.DELETE('/api/v1/users/{userId}', { params: { path: { userId } } })),
  );
}

export interface AuditLogFilter {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  page: number;
}

/** A page of the tenant's audit log, newest first. */
export function useAuditLog(filter: AuditLogFilter) {
  return useQuery({
    queryKey: ['audit-log', filter],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/audit-log', { params: { query: { ...filter, per_page: 50 } } })),
    placeholderData: keepPreviousData,
  });
}
