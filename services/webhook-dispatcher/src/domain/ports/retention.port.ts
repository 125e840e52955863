/** Deletes what is past its retention. */
export interface Retention {
  /** Removes up to `batch` finished deliveries older than `days`, their attempts and orphaned events; how many. */
  purge(days: number, batch: number): Promise<number>;
}
