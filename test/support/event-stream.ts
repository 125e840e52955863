import { waitFor } from '@bm/platform/testing';

/** One server-sent event as a browser's EventSource would dispatch it. */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: string;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A server-sent event stream read over real HTTP with fetch, parsed as the HTML standard's EventSource parses it:
 * every event it received (and the `retry:` and comments), for assertions that wait for one with a deadline.
 */
export class EventStreamClient {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  retry: number | null = null;
  /** The last event id received: what a browser sends back as Last-Event-ID. */
  lastEventId: string | null = null;
  ended = false;

  private constructor(
    private readonly abort: AbortController,
    readonly contentType: string | null,
  ) {}

  /** Opens the stream; a non-200 answer is returned with its JSON body instead. */
  static async open(
    url: string,
    headers: Record<string, string>,
  ): Promise<EventStreamClient | { status: number; body: Json; headers: Headers }> {
    const abort = new AbortController();
    const res = await fetch(url, {
      headers: { Accept: 'text/event-stream', ...headers },
      signal: abort.signal,
    });
    if (res.status !== 200 || !res.body) {
      return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
    }
    const client = new EventStreamClient(abort, res.headers.get('content-type'));
    void client.read(res.body);
    return client;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    let data: string[] = [];
    let event = '';
    let id: string | null = this.lastEventId;
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (data.length > 0) {
              this.lastEventId = id;
              this.events.push({ id, event: event || 'message', data: data.join('\n') });
            }
            data = [];
            event = '';
            continue;
          }
          if (line.startsWith(':')) {
            this.comments.push(line.slice(1).trim());
            continue;
          }
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') data.push(value);
          else if (field === 'event') event = value;
          else if (field === 'id') id = value;
          else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
        }
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
  }

  /** The events of that name, their data parsed. */
  of(name: string): Array<Json & { _id: string | null }> {
    return this.events
      .filter((e) => e.event === name)
      .map((e) => ({ ...(JSON.parse(e.data) as Json), _id: e.id }));
  }

  /** Waits for the first event of that name whose data matches. */
  next(name: string, match: (data: Json) => boolean, what = `a ${name} event`): Promise<Json> {
    return waitFor(() => this.of(name).find(match), { what, timeoutMs: 15_000 });
  }

  close(): void {
    this.abort.abort();
  }
}
