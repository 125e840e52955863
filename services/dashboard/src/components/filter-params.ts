import { useSearchParams } from 'react-router';

/** A list's filters, kept in the address; setting one other than the page goes back to the first page. */
export function useFilterParams(): [URLSearchParams, (name: string, value: string) => void] {
  const [params, setParams] = useSearchParams();
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value === '') next.delete(name);
    else next.set(name, value);
    if (name !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  return [params, set];
}
