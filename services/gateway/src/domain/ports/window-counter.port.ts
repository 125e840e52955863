/** Fixed-window counters shared by every gateway replica. */
export interface WindowCounter {
  /** Whether the store is connected now; when not, callers pass unmetered rather than wait for it. */
  ready(): boolean;
  /** Counts one hit in the key's window (it starts with its first hit); the count so far and the ms left. */
  hit(key: string, windowMs: number): Promise<{ count: number; msLeft: number }>;
}
