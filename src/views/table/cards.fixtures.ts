import { expect, within } from 'storybook/test';

/**
 * What a list on a 375 px phone must show (story play functions): its rows as a list of cards
 * named like the table (no table), each card with a heading (h2, under the page's h1), the page not scrolling sideways,
 * and every button of every card inside the window.
 */
export async function expectCardsFit(canvasElement: HTMLElement, listName: string, minCards = 1): Promise<HTMLElement> {
  const c = within(canvasElement);
  await expect(window.innerWidth).toBe(375);
  await expect(c.queryByRole('table')).toBeNull();
  const list = c.getByRole('list', { name: listName });
  const cards = within(list).getAllByRole('listitem');
  await expect(cards.length).toBeGreaterThanOrEqual(minCards);
  for (const card of cards) await expect(within(card).getByRole('heading', { level: 2 })).toBeVisible();
  const doc = canvasElement.ownerDocument.documentElement;
  await expect(doc.scrollWidth).toBeLessThanOrEqual(doc.clientWidth);
  for (const control of within(list).queryAllByRole('button').concat(within(list).queryAllByRole('link'))) {
    const box = control.getBoundingClientRect();
    await expect(box.left).toBeGreaterThanOrEqual(0);
    await expect(box.right).toBeLessThanOrEqual(window.innerWidth);
  }
  return list;
}
