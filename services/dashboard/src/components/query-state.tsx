import { ApiError } from '@bm/client';
import type { ReactNode } from 'react';

export interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** What went wrong, in words a person can act on (the API's message and its code). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : 'Something went wrong';
}

export function ErrorMessage({ error }: { error: unknown }) {
  return (
    <p role="alert" className="error">
      {errorText(error)}
    </p>
  );
}

/** Loading, error and empty states around a query's data, the same on every screen. */
export function QueryState<T>(props: {
  query: QueryLike<T>;
  isEmpty?: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { query } = props;
  if (query.isPending) {
    return (
      <p role="status" className="muted">
        Loading…
      </p>
    );
  }
  if (query.isError || query.data === undefined) {
    return (
      <div role="alert" className="error">
        <p>Could not load: {errorText(query.error)}</p>
        <button type="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (props.isEmpty?.(query.data)) return <div className="empty">{props.empty}</div>;
  return <>{props.children(query.data)}</>;
}
