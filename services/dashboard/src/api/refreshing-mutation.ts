import { useMutation, useQueryClient } from '@tanstack/react-query';

/** A change to a resource: once it succeeds, the queries under `queryKey` fetch again. */
export function useRefreshingMutation<TData, TVariables = void>(
  queryKey: readonly unknown[],
  mutationFn: (variables: TVariables) => Promise<TData>,
) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey }) });
}
