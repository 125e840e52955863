import {
  buildSendComponents,
  checkSendComponents,
  countPlaceholders,
  expectedParameters,
  mergeTemplateValues,
  type SendComponent,
  type TemplateComponent,
} from '@bm/contracts';

const ORDER_UPDATE: TemplateComponent[] = [
  { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://cdn.example.com/h.jpg'] } },
  { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships {{3}}. Thanks {{1}}!' },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Stop' },
      { type: 'URL', text: 'Track', url: 'https://example.com/track/{{1}}' },
    ],
  },
];

describe('countPlaceholders', () => {
  it.each([
    ['Hello', 0],
    ['Hi {{1}}', 1],
    ['Hi {{1}}, order {{2}}', 2],
    ['{{1}} and {{1}} again', 1],
    ['spaced {{ 2 }} and {{1}}', 2],
    ['named {{first_name}} is not positional', 0],
    ['', 0],
  ])('when the text is %p, then %i parameters are needed', (text, expected) => {
    expect(countPlaceholders(text)).toBe(expected);
  });

  it('when there is no text, then no parameter is needed', () => {
    expect(countPlaceholders(undefined)).toBe(0);
    expect(countPlaceholders(null)).toBe(0);
  });
});

describe('expectedParameters', () => {
  it('when the template has a media header, a body and a URL button, then each is counted in order', () => {
    expect(expectedParameters(ORDER_UPDATE)).toEqual({
      components: [
        { component: 'header', count: 1 },
        { component: 'body', count: 3 },
        { component: 'button', index: 1, count: 1 },
      ],
      headerMedia: 'image',
      textPlaceholders: 4,
    });
  });

  it('when the header is text with a placeholder, then it counts as text and needs no media', () => {
    const spec = expectedParameters([
      { type: 'header', format: 'text', text: 'Order {{1}}' },
      { type: 'body', text: 'Hello' },
    ]);
    expect(spec).toEqual({
      components: [{ component: 'header', count: 1 }],
      headerMedia: null,
      textPlaceholders: 1,
    });
  });
});

describe('checkSendComponents', () => {
  const spec = expectedParameters(ORDER_UPDATE);
  const text = (value: string) => ({ type: 'text' as const, text: value });

  it('when a send matches the template, then there is no mismatch and the media is present', () => {
    const given: SendComponent[] = [
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://e.com/a.jpg' } }] },
      { type: 'body', parameters: [text('Mark'), text('#1'), text('today')] },
      { type: 'button', sub_type: 'url', index: 1, parameters: [text('abc')] },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: 0,
        parameters: [{ type: 'payload', payload: 'STOP' }],
      },
    ];
    expect(checkSendComponents(spec, given)).toEqual({
      mismatches: [],
      headerMediaRequired: true,
      headerMediaPresent: true,
    });
  });

  it('when the send has no components, then media is missing and every component reports what it lacks', () => {
    expect(checkSendComponents(spec, undefined)).toEqual({
      mismatches: [
        { component: 'header', expected: 1, given: 0 },
        { component: 'body', expected: 3, given: 0 },
        { component: 'button', index: 1, expected: 1, given: 0 },
      ],
      headerMediaRequired: true,
      headerMediaPresent: false,
    });
  });

  it('when the body has too many parameters and the header media is of another kind, then both are reported', () => {
    const given: SendComponent[] = [
      { type: 'header', parameters: [{ type: 'video', video: { id: '123' } }] },
      { type: 'body', parameters: [text('a'), text('b'), text('c'), text('d')] },
      { type: 'button', sub_type: 'url', index: 1, parameters: [text('x')] },
    ];
    const check = checkSendComponents(spec, given);
    expect(check.mismatches).toEqual([{ component: 'body', expected: 3, given: 4 }]);
    expect(check.headerMediaPresent).toBe(false);
  });

  it('when parameters come for a template without placeholders, then the extra component is a mismatch', () => {
    const plain = expectedParameters([{ type: 'BODY', text: 'Hello' }]);
    expect(checkSendComponents(plain, [{ type: 'body', parameters: [text('x')] }]).mismatches).toEqual([
      { component: 'body', expected: 0, given: 1 },
    ]);
  });
});

describe('campaign values', () => {
  it('when variables are given, then they win over template_params by position', () => {
    expect(mergeTemplateValues(['a', 'b', 'c'], { '2': 'B' })).toEqual(['a', 'B', 'c']);
    expect(mergeTemplateValues([], { '1': 'x', '2': 'y' })).toEqual(['x', 'y']);
    expect(mergeTemplateValues()).toEqual([]);
  });

  it('when a position below the highest one has no value, then the values are incomplete', () => {
    expect(mergeTemplateValues(['a'], { '3': 'c' })).toBeNull();
  });

  it('when a flat list is built into components, then it fills header, body and URL buttons in order', () => {
    const spec = expectedParameters(ORDER_UPDATE);
    const components = buildSendComponents(spec, ['Mark', '#1', 'today', 'abc'], {
      link: 'https://e.com/h.jpg',
    });
    expect(components).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://e.com/h.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Mark' },
          { type: 'text', text: '#1' },
          { type: 'text', text: 'today' },
        ],
      },
      { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: 'abc' }] },
    ]);
    expect(checkSendComponents(spec, components)).toEqual({
      mismatches: [],
      headerMediaRequired: true,
      headerMediaPresent: true,
    });
  });

  it('when a media header has neither link nor id, then building throws', () => {
    expect(() => buildSendComponents(expectedParameters(ORDER_UPDATE), ['a', 'b', 'c', 'd'])).toThrow(
      /link or an id/,
    );
  });
});
