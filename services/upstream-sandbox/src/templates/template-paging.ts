import { GraphError } from '../graph-errors';
import type { Template } from './template';

export const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  limit?: string;
  after?: string;
  before?: string;
}

export interface Page {
  data: Template[];
  before?: string;
  after?: string;
  hasNext: boolean;
  hasPrevious: boolean;
}

/** Cursors name a template by id, so a page boundary survives templates added after it. */
export function encodeCursor(template: Template): string {
  return Buffer.from(template.id).toString('base64url');
}

function cursorIndex(list: Template[], cursor: string): number {
  const id = Buffer.from(cursor, 'base64url').toString();
  const index = list.findIndex((t) => t.id === id);
  if (index < 0) throw GraphError.of(100, 'The cursor is not valid.');
  return index;
}

function pageSize(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1)
    throw GraphError.of(100, 'Param limit must be a positive integer.');
  return Math.min(limit, MAX_PAGE_SIZE);
}

/** One page of the list, after the `after` cursor or before the `before` cursor. */
export function pageOf(list: Template[], request: PageRequest): Page {
  const limit = pageSize(request.limit);
  let start = 0;
  if (request.after !== undefined && request.after !== '') start = cursorIndex(list, request.after) + 1;
  else if (request.before !== undefined && request.before !== '') {
    start = Math.max(0, cursorIndex(list, request.before) - limit);
  }
  const data = list.slice(start, start + limit);
  return {
    data,
    before: data.length > 0 ? encodeCursor(data[0]) : undefined,
    after: data.length > 0 ? encodeCursor(data[data.length - 1]) : undefined,
    hasNext: start + data.length < list.length,
    hasPrevious: start > 0 && data.length > 0,
  };
}
