import { readableError } from '../../src/components/webhook-error';

describe('webhook errors as the health monitor shows them', () => {
  it('when an error is shown to a person, then it reads as HTTP 500 or connection refused', () => {
    expect(readableError('http_error: HTTP 500', 500)).toBe('HTTP 500');
    expect(readableError('redirect_not_followed: HTTP 302', 302)).toBe('HTTP 302 (redirect not followed)');
    expect(readableError('connection_refused: ECONNREFUSED', null)).toBe('connection refused');
    expect(readableError('timeout: no complete answer within 10000 ms', null)).toBe(
      'timeout: no complete answer within 10000 ms',
    );
  });
});
