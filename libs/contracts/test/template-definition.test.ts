import { templateDefinitionErrors, templateVariables, type TemplateComponent } from '../src';

describe("a template's components checked as the upstream reviews them", () => {
  const valid: TemplateComponent[] = [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#123'] } },
    { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships today.', example: { body_text: [['Ana', '#123']] } },
    { type: 'FOOTER', text: 'Thanks' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Stop' },
        {
          type: 'URL',
          text: 'Track',
          url: 'https://shop.example/t/{{1}}',
          example: ['https://shop.example/t/1'],
        },
        { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15551234567' },
        { type: 'COPY_CODE', example: 'SAVE10' },
      ],
    },
  ];

  it('when every rule holds, then there is no error', () => {
    expect(templateDefinitionErrors(valid)).toEqual([]);
  });

  it('when a variable is repeated or out of order, then each number counts once', () => {
    expect(templateVariables('{{2}} and {{1}} and {{2}}')).toEqual([2, 1]);
  });

  it.each<[string, TemplateComponent[], string, RegExp]>([
    [
      'a gap',
      [{ type: 'BODY', text: 'Hi {{1}} and {{3}}.', example: { body_text: [['a', 'b']] } }],
      'components[0].text',
      /without gaps/,
    ],
    ['a named variable', [{ type: 'BODY', text: 'Hi {{name}}.' }], 'components[0].text', /not a variable/],
    [
      'a variable ending the body',
      [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['a']] } }],
      'components[0].text',
      /start or end/,
    ],
    [
      'a header on two lines',
      [
        { type: 'HEADER', format: 'TEXT', text: 'Big\nsale' },
        { type: 'BODY', text: 'Hi' },
      ],
      'components[0].text',
      /one line/,
    ],
    [
      'a variable in a button text',
      [
        { type: 'BODY', text: 'Hi' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes {{1}}' }] },
      ],
      'components[1].buttons[0].text',
      /variables/,
    ],
    ['a missing sample', [{ type: 'BODY', text: 'Hi {{1}}.' }], 'components[0].example.body_text', /sample/],
    [
      'a blank sample',
      [{ type: 'BODY', text: 'Hi {{1}}.', example: { body_text: [[' ']] } }],
      'components[0].example.body_text',
      /sample/,
    ],
    [
      'an image header without a sample',
      [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Hi' },
      ],
      'components[0].example.header_handle',
      /URL/,
    ],
    [
      'a copy code too long',
      [
        { type: 'BODY', text: 'Hi' },
        { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'A'.repeat(16) }] },
      ],
      'components[1].buttons[0].example',
      /15/,
    ],
    [
      'a URL variable not at the end',
      [
        { type: 'BODY', text: 'Hi' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Go', url: 'https://x.example/{{1}}/a', example: ['https://x.example/1/a'] },
          ],
        },
      ],
      'components[1].buttons[0].url',
      /at its end/,
    ],
  ])('when the template has %s, then an error names the field', (_what, components, field, message) => {
    const errors = templateDefinitionErrors(components);
    expect(errors.map((e) => e.field)).toContain(field);
    expect(errors.find((e) => e.field === field)?.message).toMatch(message);
  });
});
