import { ApiError } from '@bm/client';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { sessionKey } from './session';

// An ended session shows as 401 on any call: the session query then answers null and the layout sends the user
// to sign in, from any screen. A role changed meanwhile shows as 403 FORBIDDEN_FOR_ROLE: the session is read
// again, and the screens offer what the new role may do.
function onError(error: Error): void {
  if (error instanceof ApiError && error.status === 401) queryClient.setQueryData(sessionKey, null);
  if (error instanceof ApiError && error.code === 'FORBIDDEN_FOR_ROLE') {
    void queryClient.invalidateQueries({ queryKey: sessionKey });
  }
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A 4xx is an answer, not a hiccup: only server errors and network failures are tried again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});
