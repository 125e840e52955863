import { roleMay, unwrap, type components, type RoleOperation } from '@bm/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, setCsrfToken } from './client';

export type DashboardSession = components['schemas']['DashboardSession'];

export const sessionKey = ['session'] as const;

/** The signed-in session, or null when there is none (never an error: signed out is a state). */
export function useSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: async (): Promise<DashboardSession | null> => {
      const result = await api.GET('/api/auth/session');
      if (result.response.status === 401) return null;
      const session = unwrap(result);
      setCsrfToken(session.csrf_token);
      return session;
    },
    staleTime: Infinity,
    retry: false,
  });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { email: string; password: string }) =>
      unwrap(await api.POST('/api/auth/sign-in', { body })),
    onSuccess: (session) => {
      setCsrfToken(session.csrf_token);
      client.setQueryData(sessionKey, session);
    },
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/auth/sign-out')),
    onSettled: () => {
      setCsrfToken(undefined);
      client.clear();
      client.setQueryData(sessionKey, null);
    },
  });
}

export function useSetPassword() {
  return useMutation({
    mutationFn: async (body: { token: string; password: string }) =>
      unwrap(await api.POST('/api/auth/set-password', { body })),
  });
}

/**
 * Whether the signed-in user's role may call an operation (the gateway's own table, from the OpenAPI
 * document): screens offer only what the user may do. Nothing is allowed while the session is unknown.
 */
export function useCan(): (operationId: RoleOperation) => boolean {
  const session = useSession();
  const role = session.data?.user.role;
  return (operationId) => role !== undefined && roleMay(role, operationId);
}
