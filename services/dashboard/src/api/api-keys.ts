import { unwrap, type components, type Role } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './refreshing-mutation';

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
  return useRefreshingMutation(keysKey, async (body: { name?: string; role?: Role }) =>
    unwrap(await api.POST('/api/v1/api-keys', { body })),
  );
}

export function useRevokeApiKey() {
  return useRefreshingMutation(keysKey, async (keyId: string) =>
    unwrap(await api.DELETE('/api/v1/api-keys/{keyId}', { params: { path: { keyId } } })),
  );
}
