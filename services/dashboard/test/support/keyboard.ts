import type { Page } from 'playwright-core';

/** What has keyboard focus now: its tag, its accessible name (or value) and whether it is inside <main>. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', name: '', inMain: false, visible: true };
    const rect = el.getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      name: (
        el.getAttribute('aria-label') ||
        (el as HTMLInputElement).labels?.[0]?.textContent ||
        el.textContent ||
        ''
      ).trim(),
      inMain: el.closest('main') !== null,
      visible: rect.width > 0 && rect.height > 0,
    };
  });

/** Every enabled control a mouse user could use inside <main>, named as `focused` names them. */
export const controlsInMain = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main a[href], main button, main input, main select, main textarea')]
      .filter((el) => !(el as HTMLButtonElement).disabled)
      // A radio group is one Tab stop (its checked radio); the arrow keys move within it.
      .filter((el) => !((el as HTMLInputElement).type === 'radio' && !(el as HTMLInputElement).checked))
      .filter((el) => {
        const rect = el.getBoundingClientRect();
        return rect.width > 0 && rect.height > 0;
      })
      .map((el) =>
        (
          el.getAttribute('aria-label') ||
          (el as HTMLInputElement).labels?.[0]?.textContent ||
          el.textContent ||
          ''
        ).trim(),
      ),
  );

/** Presses Tab until the focused element matches, at most `max` times; fails if it never does. */
export async function tabTo(
  page: Page,
  matches: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  max = 80,
) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (matches(f)) return f;
  }
  throw new Error('the element was never reached with Tab');
}

/** Tabs through a whole screen, answering every control inside <main> that focus reached. */
export async function tabThroughMain(page: Page, max = 250): Promise<Set<string>> {
  const reached = new Set<string>();
  let leftMain = false;
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    expect(f.visible ? 'visible' : `${f.tag} ${f.name}`).toBe('visible');
    if (f.inMain) reached.add(f.name);
    else if (reached.size > 0) {
      leftMain = true;
      break;
    }
  }
  expect(leftMain ? 'left main' : [...reached].slice(-5).join(' | ')).toBe('left main');
  return reached;
}
