import { useState, type FormEvent } from 'react';
import { useAddOptOut, useOptOuts, useRemoveOptOut, type OptOut } from '../api/opt-outs';
import { customer, when } from '../components/format';
import { PagedList, type ListSpec } from '../components/paged-table';
import { ErrorMessage } from '../components/query-state';
import { useCan } from '../api/session';

const SOURCES: Record<OptOut['source'], string> = {
  api: 'API or dashboard',
  keyword: 'Customer keyword (STOP)',
  marketing_stop: 'Stopped marketing in WhatsApp',
};

/** Opted-out phones: search, add, remove, and how each got on the list. */
export function OptOutsScreen() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const optOuts = useOptOuts({ page, ...(search ? { phone: search } : {}) });
  const add = useAddOptOut();
  const remove = useRemoveOptOut();
  const can = useCan();
  const [newPhone, setNewPhone] = useState('');
  const list: ListSpec<OptOut> = {
    columns: [
      { header: 'Phone', cell: (o) => customer(o.phone, o.user_id) },
      { header: 'Source', cell: (o) => SOURCES[o.source] },
      { header: 'Since', cell: (o) => when(o.created_at) },
      {
        header: 'Remove',
        cell: (o) =>
          can('removeOptOut') && (
            <button
              type="button"
              className="small danger"
              aria-label={`Remove ${customer(o.phone, o.user_id)}`}
              disabled={remove.isPending}
              onClick={() => {
                if (
                  window.confirm(
                    `Remove ${customer(o.phone, o.user_id)}? Marketing messages will reach it again.`,
                  )
                ) {
                  remove.mutate((o.phone ?? o.user_id)!);
                }
              }}
            >
              Remove
            </button>
          ),
      },
    ],
    caption: 'Opted-out phones',
    empty: <>No opted-out phones{search ? ' match' : ''}.</>,
    rowKey: (o) => (o.phone ?? o.user_id)!,
  };
  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(newPhone, { onSuccess: () => setNewPhone('') });
  };
  return (
    <>
      <h1>Opt-outs</h1>
      <div className="grid">
        <form className="card stack" onSubmit={onAdd} aria-label="Add an opt-out" hidden={!can('addOptOut')}>
          <label>
            Phone to opt out
            <input type="tel" required value={newPhone} onChange={(e) => setNewPhone(e.target.value)} />
          </label>
          {add.isError && <ErrorMessage error={add.error} />}
          {add.isSuccess && <p role="status">Opted out: {customer(add.data.phone, add.data.user_id)}.</p>}
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
      <PagedList query={optOuts} rows={(data) => data.opt_outs} list={list} onPage={setPage} />
    </>
  );
}
