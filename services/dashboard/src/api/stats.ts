import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

export type MessageStats = components['schemas']['MessageStats'];
export type StatusCounts = components['schemas']['StatusCounts'];

/** The overview's message figures, refreshed every half minute. */
export function useStats() {
  return useQuery({
    queryKey: ['stats'],
    queryFn: async () => unwrap(await api.GET('/api/v1/stats')),
    refetchInterval: 30_000,
  });
}
