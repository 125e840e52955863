/**
 * The last digits by which the sandbox picks a fault (its patterns, and those of the 2026 wire, which it plays to
 * the product's default Graph API version): a random phone avoids them.
 */
export const SANDBOX_FAULT_SUFFIXES =
  /(0049|0026|0047|0050|9429|9056|9057|9500|9503|1015|2015|0472|1050|1062)$/;
