/**
 * Starts a fixture before the tests of the file (or describe block) that calls it, and stops it after them. The
 * returned object stands for the running fixture, so a test reads it as if it had started the fixture itself.
 */
export function useFixture<T extends object>(
  start: () => Promise<T>,
  stop: (fixture: T) => Promise<unknown>,
): T {
  let running: T | undefined;
  beforeAll(async () => {
    running = await start();
  });
  afterAll(async () => {
    if (running !== undefined) await stop(running);
  });
  return new Proxy({} as T, {
    get: (_target, key) => {
      if (running === undefined) throw new Error('the fixture is used before its beforeAll started it');
      return Reflect.get(running, key) as unknown;
    },
  });
}
