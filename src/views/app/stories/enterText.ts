import { userEvent } from 'storybook/test';

/*
 * Story support: puts `text` into an empty field as one input (a paste) instead of one keystroke
 * at a time. Each keystroke re-renders the whole form (machine, selectors, Chakra), 40-60 ms a
 * character on a loaded CI machine, and the stories that use this check what reaches the machine
 * or the callbacks, not how it was typed. Stories about keys (Enter, a single character, the
 * datetime field) still type.
 */
export async function enterText(field: HTMLElement, text: string): Promise<void> {
  await userEvent.click(field);
  await userEvent.paste(text);
}
