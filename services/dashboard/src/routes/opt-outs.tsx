import { useState, type FormEvent } from 'react';
import { useAddOptOut, useOptOuts, useRemoveOptOut, type OptOut } from '../api/opt-outs';
import { DataTable, type Column } from '../components/data-table';
import { phone, when } from '../components/format';
import { Pager } from '../components/pager';
import { ErrorMessage, QueryState } from '../components/query-state';

const SOURCES: Record<OptOut['source'], string> = {
  api: 'API or dashboard',
  keyword: 'Customer keyword (STOP)',
};

/** Opted-out phones: search, add, remove, and how each got on the list. */
export function OptOutsScreen() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const optOuts = useOptOuts({ page, ...(search ? { phone: search } : {}) });
  const add = useAddOptOut();
  const remove = useRemoveOptOut();
  const [newPhone, setNewPhone] = useState('');
  const columns: Column<OptOut>[] = [
    { header: 'Phone', cell: (o) => phone(o.phone) },
    { header: 'Source', cell: (o) => SOURCES[o.source] },
    { header: 'Since', cell: (o) => when(o.created_at) },
    {
      header: 'Remove',
      cell: (o) => (
        <button
          type="button"
          className="small danger"
          aria-label={`Remove ${phone(o.phone)}`}
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Remove ${phone(o.phone)}? Marketing messages will reach it again.`)) {
              remove.mutate(o.phone);
            }
          }}
        >
          Remove
        </button>
      ),
    },
  ];
  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(newPhone, { onSuccess: () => setNewPhone('') });
  };
  return (
    <>
      <h1>Opt-outs</h1>
      <div className="grid">
        <form className="card stack" onSubmit={onAdd} aria-label="Add an opt-out">
          <label>
            Phone to opt out
            <input type="tel" required value={newPhone} onChange={(e) => setNewPhone(e.target.value)} />
          </label>
          {add.isError && <ErrorMessage error={add.error} />}
          {add.isSuccess && <p role="status">Opted out: {phone(add.data.phone)}.</p>}
          <button type="submit" className="primary" disabled={add.isPending}>
            Add
          </button>
        </form>
        <form className="card stack" onSubmit={(e) => e.preventDefault()} aria-label="Search opt-outs">
          <label>
            Search by phone (leading digits)
            <input
              type="search"
              inputMode="tel"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value.replace(/[^\d+]/g, ''));
                setPage(1);
              }}
            />
          </label>
        </form>
      </div>
      {remove.isError && <ErrorMessage error={remove.error} />}
      <QueryState query={optOuts} empty={null}>
        {(data) => (
          <>
            {data.opt_outs.length === 0 ? (
              <p className="empty">No opted-out phones{search ? ' match' : ''}.</p>
            ) : (
              <DataTable
                caption="Opted-out phones"
                columns={columns}
                rows={data.opt_outs}
                rowKey={(o) => o.phone}
              />
            )}
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
