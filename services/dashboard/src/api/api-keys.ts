import { unwrap, type components } from '@bm/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export type ApiKeySummary = components['schemas']['ApiKeySummary'];
const keysKey = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: keysKey,
    queryFn: async () => unwrap(await api.GET('/api/v1/api-keys')).api_keys,
  });
}

/** Issues a key; the answer holds the key itself, shown this once. */
export function useIssueApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/api-keys')),
    onSuccess: () => client.invalidateQueries({ queryKey: keysKey }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) =>
      unwrap(await api.DELETE('/api/v1/api-keys/{keyId}', { params: { path: { keyId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keysKey }),
  });
}
