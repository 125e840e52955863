import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './refreshing-mutation';

export type Flow = components['schemas']['Flow'];
export type FlowStep = Flow['steps'][number];
export type FlowSession = components['schemas']['FlowSession'];
const flowsKey = ['flows'] as const;

export function useFlows(page: number) {
  return useQuery({
    queryKey: [...flowsKey, 'list', page],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/flows', { params: { query: { page, per_page: 50 } } })),
  });
}

export function useFlow(id: string) {
  return useQuery({
    queryKey: [...flowsKey, 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/flows/{id}', { params: { path: { id } } })),
  });
}

/** A flow's sessions, newest first, polled so a session a customer starts shows without a reload. */
export function useFlowSessions(id: string, page: number) {
  return useQuery({
    queryKey: [...flowsKey, 'sessions', id, page],
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/flows/{id}/sessions', {
          params: { path: { id }, query: { page, per_page: 50 } },
        }),
      ),
    refetchInterval: 2_000,
  });
}

export function useSetFlowActive() {
  return useRefreshingMutation(flowsKey, async ({ id, active }: { id: string; active: boolean }) => {
    const path = { params: { path: { id } } };
    return unwrap(
      active
        ? await api.POST('/api/v1/flows/{id}/activate', path)
        : await api.POST('/api/v1/flows/{id}/deactivate', path),
    );
  });
}

export type SaveFlowRequest = components['schemas']['CreateFlowRequest'];

/** Creates a flow (inactive), or replaces a flow's definition with a new version when `id` is given. */
export function useSaveFlow() {
  return useRefreshingMutation(flowsKey, async ({ id, body }: { id?: string; body: SaveFlowRequest }) =>
    unwrap(
      id === undefined
        ? await api.POST('/api/v1/flows', { body })
        : await api.PUT('/api/v1/flows/{id}', { params: { path: { id } }, body }),
    ),
  );
}
