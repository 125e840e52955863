import { get } from 'node:http';
import {
  createHttpApp,
  createLogger,
  csvCell,
  csvLine,
  defineRoutes,
  startHttpServer,
  streamCsv,
  type RunningServer,
} from '@bm/platform';
import { waitFor } from '@bm/platform/testing';

describe('CSV cells', () => {
  it('when a cell holds quotes, commas or line breaks, then it is quoted with its quotes doubled', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 3, new Date(0)])).toBe(
      'a,"b,c","say ""hi""","two\nlines",,3,1970-01-01T00:00:00.000Z\r\n',
    );
  });

  it('when a text starts like a formula, then it gets a leading apostrophe (and is still quoted when it must be)', () => {
    expect(['=1+2', '+1', '-2', '@x', '\tx', '=A1,"B"', 'a=b'].map(csvCell)).toEqual([
      "'=1+2",
      "'+1",
      "'-2",
      "'@x",
      "'\tx",
      `"'=A1,""B"""`,
      'a=b',
    ]);
    expect(csvCell(-2)).toBe('-2');
  });
});

describe('streamCsv', () => {
  const PAGES = 2_000;
  const ROW = 'x'.repeat(32 * 1024);
  let server: RunningServer;
  let read = 0;
  let finished = false;

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger('test', 'silent'),
      routes: (a) =>
        defineRoutes(a.router, [
          {
            method: 'GET',
            path: '/export',
            handlers: [
              async (_req, res) => {
                async function* pages() {
                  try {
                    for (read = 0; read < PAGES;) {
                      // A page's read, as a database query would be.
                      await new Promise((r) => setImmediate(r));
                      read++;
                      yield [[read, ROW]];
                    }
                  } finally {
                    finished = true;
                  }
                }
                await streamCsv(res, 'rows.csv', ['n', 'row'], pages());
              },
            ],
          },
        ]),
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('when the client stops reading, then pages stop being read (one page in memory, not the export), and a client gone ends the reading', async () => {
    const response = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      get(`${server.url}/export`, resolve);
    });
    response.pause();
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="rows.csv"');
    // Only what the sockets' buffers hold is read ahead of a client that does not read (64 MB in all).
    await new Promise((r) => setTimeout(r, 300));
    const readWhilePaused = read;
    await new Promise((r) => setTimeout(r, 200));
    expect(read).toBe(readWhilePaused);
    expect(read).toBeLessThan(PAGES / 2);

    response.destroy();

    await waitFor(() => finished, { what: 'the reading to end' });
    expect(read).toBeLessThan(PAGES);
  });
});
