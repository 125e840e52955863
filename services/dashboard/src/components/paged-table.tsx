import type { ReactNode } from 'react';
import { DataTable, type Column } from './data-table';
import { Pager, type Pagination } from './pager';
import { QueryState, type QueryLike } from './query-state';

/** How a list shows: its table's columns and caption, each row's key, and what to say when a page is empty. */
export interface ListSpec<T> {
  columns: Column<T>[];
  caption: string;
  empty: ReactNode;
  rowKey: (row: T) => string | number;
}

/** One page of a list: its table, or what to say when the page is empty, and the pager under it. */
export function PagedTable<T>(props: {
  list: ListSpec<T>;
  rows: T[];
  pagination: Pagination;
  onPage: (page: number) => void;
}) {
  const { list } = props;
  return (
    <>
      {props.rows.length === 0 ? (
        <p className="empty">{list.empty}</p>
      ) : (
        <DataTable caption={list.caption} columns={list.columns} rows={props.rows} rowKey={list.rowKey} />
      )}
      <Pager pagination={props.pagination} onPage={props.onPage} />
    </>
  );
}

/** A paginated query shown as a `PagedTable`, with the loading and error states around it. */
export function PagedList<P extends { pagination: Pagination }, T>(props: {
  query: QueryLike<P>;
  rows: (page: P) => T[];
  list: ListSpec<T>;
  onPage: (page: number) => void;
}) {
  return (
    <QueryState query={props.query} empty={null}>
      {(page) => (
        <PagedTable
          list={props.list}
          rows={props.rows(page)}
          pagination={page.pagination}
          onPage={props.onPage}
        />
      )}
    </QueryState>
  );
}
