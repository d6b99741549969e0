import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { storyRuleViolations } from './storyPlays';

/*
 * Conventions §4: a story named after a state stays in that state. A story whose play clicks,
 * types, focuses or dispatches is an interaction story: tagged 'interaction' and named
 * `... Interaction`; a state story's play only asserts. Every story file keeps it.
 */

function storyFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return storyFiles(full);
    return e.name.endsWith('.stories.tsx') ? [full] : [];
  });
}

const files = storyFiles('src').map((f) => f.split(path.sep).join('/')).sort();

describe('state stories stay in their state (conventions §4)', () => {
  it.each(files)('%s', (file) => {
    expect(storyRuleViolations(file, readFileSync(file, 'utf8'))).toEqual([]);
  });
});

describe('the rule itself', () => {
  const file = (body: string) => `import { expect, userEvent, within } from 'storybook/test';\n${body}`;
  it('lets a play that only asserts stay on a state story', () => {
    const text = file(`export const Idle = { play: async ({ canvasElement }) => { await expect(within(canvasElement).getByText('x')).toBeVisible(); } };`);
    expect(storyRuleViolations('a.stories.tsx', text)).toEqual([]);
  });
  it('refuses a click on a state story, also through a helper in the file', () => {
    const direct = file(`export const Idle = { play: async () => { await userEvent.click(document.body); } };`);
    expect(storyRuleViolations('a.stories.tsx', direct)).toHaveLength(1);
    const helper = file(`async function open() { await userEvent.click(document.body); }\nexport const Idle = { play: async () => { await open(); } };`);
    expect(storyRuleViolations('a.stories.tsx', helper)).toHaveLength(1);
    const focus = file(`export const Idle = { play: () => { document.body.focus(); } };`);
    expect(storyRuleViolations('a.stories.tsx', focus)).toHaveLength(1);
  });
  it('takes a tagged, named interaction story and refuses half of it', () => {
    const play = `play: async () => { await userEvent.click(document.body); }`;
    expect(storyRuleViolations('a.stories.tsx', file(`export const IdleInteraction = { tags: ['interaction'], ${play} };`))).toEqual([]);
    expect(storyRuleViolations('a.stories.tsx', file(`export const Idle = { tags: ['interaction'], ${play} };`))).toHaveLength(1);
    expect(storyRuleViolations('a.stories.tsx', file(`export const IdleInteraction = { ${play} };`))).toHaveLength(2);
  });
});
