import { unwrap, type components } from '@bm/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './refreshing-mutation';

export type OptOut = components['schemas']['OptOut'];
const optOutsKey = ['opt-outs'] as const;

/** A page of opted-out phones, newest first; `phone` searches by leading digits. */
export function useOptOuts(query: { page: number; phone?: string }) {
  return useQuery({
    queryKey: [...optOutsKey, query],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/opt-outs', { params: { query: { ...query, per_page: 50 } } })),
    placeholderData: keepPreviousData,
  });
}

export function useAddOptOut() {
  return useRefreshingMutation(optOutsKey, async (phone: string) =>
    unwrap(await api.POST('/api/v1/opt-outs', { body: { phone } })),
  );
}

export function useRemoveOptOut() {
  return useRefreshingMutation(optOutsKey, async (phone: string) =>
    unwrap(await api.DELETE('/api/v1/opt-outs/{phone}', { params: { path: { phone } } })),
  );
}
