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

/** Makes a session just started (sign-in, a password set or reset) the one every screen sees. */
function useStartSession() {
  const client = useQueryClient();
  return (session: DashboardSession) => {
    setCsrfToken(session.csrf_token);
    // Whatever another session of this browser had loaded is not this user's to see.
    client.clear();
    client.setQueryData(sessionKey, session);
  };
}

export function useSignIn() {
  const start = useStartSession();
  return useMutation({
    mutationFn: async (body: { email: string; password: string }) =>
      unwrap(await api.POST('/api/auth/sign-in', { body })),
    onSuccess: start,
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

/** Sets the password from an invite link; the user is signed in by it. */
export function useSetPassword() {
  const start = useStartSession();
  return useMutation({
    mutationFn: async (body: { token: string; password: string }) =>
      unwrap(await api.POST('/api/auth/set-password', { body })),
    onSuccess: ({ user, csrf_token, idle_expires_at, absolute_expires_at }) =>
      start({ user, csrf_token, idle_expires_at, absolute_expires_at }),
  });
}

/** Asks for a reset link by mail; the answer never says whether the address is anyone's. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: async (body: { email: string }) =>
      unwrap(await api.POST('/api/auth/password-reset', { body })),
  });
}

/** Sets a new password from a reset link; the user is signed in by it (their other sessions end). */
export function useResetPassword() {
  const start = useStartSession();
  return useMutation({
    mutationFn: async (body: { token: string; password: string }) =>
      unwrap(await api.POST('/api/auth/reset-password', { body })),
    onSuccess: start,
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
