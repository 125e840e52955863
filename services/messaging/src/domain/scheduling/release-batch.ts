/** The most rows one job of a scheduler pass takes at once. */
export const RELEASE_BATCH = 500;
