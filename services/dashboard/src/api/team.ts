import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

export type TeamMember = components['schemas']['TeamMember'];

/** The tenant's dashboard users: the colleagues a conversation can be assigned to. */
export function useTeam() {
  return useQuery({
    queryKey: ['team'],
    queryFn: async () => unwrap(await api.GET('/api/v1/users')).users,
    staleTime: 60_000,
  });
}
