import ts from 'typescript';

/*
 * Reads a *.stories.tsx file and tells, for every exported story, whether its `play` changes what
 * the story shows: it types, clicks, focuses or dispatches (through userEvent, fireEvent, the
 * enterText helper, or a DOM method), directly or through a function declared in the same file.
 * A play that only reads and asserts does not. Conventions §4: a story that changes state is an
 * interaction story, tagged `interaction` and named `... Interaction`; a state story stays in the
 * state it is named after.
 */

/** Names whose mere use in a play means input reaches the page. */
const interactingNames = new Set(['userEvent', 'fireEvent', 'enterText']);
/** DOM and actor methods that change what is shown when a play calls them. */
const interactingMethods = new Set(['click', 'focus', 'blur', 'dispatchEvent', 'submit', 'send']);

export interface StoryInfo {
  /** The export name (`Idle`, `IdleInteraction`). */
  readonly name: string;
  readonly tags: readonly string[];
  /** The story has a `play` (its own, not the meta's). */
  readonly hasPlay: boolean;
  /** Its play types, clicks, focuses or dispatches (see above). */
  readonly interacts: boolean;
  /** The statement that declares the story, for tools that rewrite the file. */
  readonly statement: ts.VariableStatement;
  readonly object: ts.ObjectLiteralExpression | undefined;
}

export function parseStories(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
}

function unwrap(e: ts.Expression): ts.Expression {
  let x = e;
  while (ts.isSatisfiesExpression(x) || ts.isAsExpression(x) || ts.isParenthesizedExpression(x)) x = x.expression;
  return x;
}

/** Top-level functions (declarations and consts bound to a function) by name. */
function localFunctions(file: ts.SourceFile): Map<string, ts.Node> {
  const out = new Map<string, ts.Node>();
  for (const s of file.statements) {
    if (ts.isFunctionDeclaration(s) && s.name) out.set(s.name.text, s);
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        const init = unwrap(d.initializer);
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) out.set(d.name.text, init);
      }
    }
  }
  return out;
}

/** Returns a predicate: does this node (transitively through local functions) interact? */
export function interactionDetector(file: ts.SourceFile): (node: ts.Node) => boolean {
  const functions = localFunctions(file);
  const memo = new Map<string, boolean>();
  const visiting = new Set<string>();
  const viaFunction = (name: string): boolean => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const fn = functions.get(name);
    if (!fn || visiting.has(name)) return false;
    visiting.add(name);
    const result = interacts(fn);
    visiting.delete(name);
    memo.set(name, result);
    return result;
  };
  const interacts = (node: ts.Node): boolean => {
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isIdentifier(n)) {
        if (interactingNames.has(n.text) || viaFunction(n.text)) found = true;
        return;
      }
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && interactingMethods.has(n.expression.name.text)) {
        found = true;
        return;
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
    return found;
  };
  return interacts;
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  return object.properties.find((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === name);
}

function tagsOf(object: ts.ObjectLiteralExpression | undefined): string[] {
  const tags = object && property(object, 'tags');
  if (!tags || !ts.isPropertyAssignment(tags)) return [];
  const value = unwrap(tags.initializer);
  if (!ts.isArrayLiteralExpression(value)) return [];
  return value.elements.filter(ts.isStringLiteralLike).map((e) => e.text);
}

/** The exported stories of a parsed stories file, in file order. */
export function storiesOf(file: ts.SourceFile): StoryInfo[] {
  const interacts = interactionDetector(file);
  const out: StoryInfo[] = [];
  for (const s of file.statements) {
    if (!ts.isVariableStatement(s) || !s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of s.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer) continue;
      const init = unwrap(d.initializer);
      const object = ts.isObjectLiteralExpression(init) ? init : undefined;
      const play = object && property(object, 'play');
      out.push({
        name: d.name.text,
        tags: tagsOf(object),
        hasPlay: play !== undefined,
        interacts: play !== undefined && interacts(play),
        statement: s,
        object,
      });
    }
  }
  return out;
}

/** What is wrong with a file's stories under the rule; empty when it keeps it. */
export function storyRuleViolations(fileName: string, text: string): string[] {
  const problems: string[] = [];
  for (const story of storiesOf(parseStories(fileName, text))) {
    const tagged = story.tags.includes('interaction');
    const named = story.name.endsWith('Interaction');
    if (story.interacts && !tagged) problems.push(`${story.name}: its play changes state but it is not tagged 'interaction'`);
    if (tagged && !named) problems.push(`${story.name}: an interaction story's name ends in 'Interaction'`);
    if (named && !tagged) problems.push(`${story.name}: named as an interaction but not tagged 'interaction'`);
  }
  return problems;
}
