import { AppError } from '@bm/platform';

/** Parses a path id; anything but a positive integer is as unknown as a missing message. */
export function messageIdOf(raw: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new AppError('MESSAGE_NOT_FOUND');
  return id;
}
