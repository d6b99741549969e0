// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderSafeMarkdown, sanitizeHtml } from '../../src/views/app/markdown';

describe('renderMarkdown', () => {
  it('renders headings, emphasis, lists and links', () => {
    const html = renderMarkdown('# 欢迎\n\n**重要** 公告\n\n- 一\n- 二\n\n[文档](https://example.com/docs)');
    expect(html).toContain('<h1>欢迎</h1>');
    expect(html).toContain('<strong>重要</strong>');
    expect(html).toContain('<li>一</li>');
    expect(html).toContain('<a href="https://example.com/docs">文档</a>');
  });
  it('renders GitHub-flavoured tables', () => {
    expect(renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |')).toContain('<table>');
  });
  it('puts each table in a focusable box that scrolls sideways, which survives sanitising', () => {
    const html = renderSafeMarkdown('| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toMatch(/^<div class="md-table-scroll" tabindex="0"><table>/);
    expect(html).toContain('<th>a</th>');
    expect(html.trim()).toMatch(/<\/table>\s*<\/div>$/);
  });
  it('leaves an http:// address as text (only https:// content is framed, by the machine)', () => {
    expect(renderMarkdown('http://example.com')).toContain('<p>');
  });
  it('is synchronous', () => {
    expect(typeof renderMarkdown('x')).toBe('string');
  });
});

describe('sanitizeHtml', () => {
  it('keeps ordinary markup', () => {
    const html = '<p>版权所有 <a href="https://example.com">Example</a> <strong>2024</strong></p>';
    expect(sanitizeHtml(html)).toBe(html);
  });
  it('removes scripts, handlers and javascript: links', () => {
    const out = sanitizeHtml(
      '<p onclick="alert(1)">hi</p><script>alert(2)</script><a href="javascript:alert(3)">x</a><img src="x" onerror="alert(4)">',
    );
    expect(out).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(out).toContain('<p>hi</p>');
  });
  it('removes frames, forms and style sheets', () => {
    const out = sanitizeHtml('<iframe src="https://evil.example"></iframe><form><input></form><style>body{}</style>ok');
    expect(out).toBe('ok');
  });
  it('keeps target on links and adds rel=noopener for new tabs', () => {
    const out = sanitizeHtml('<a href="https://example.com" target="_blank">x</a>');
    expect(out).toContain('target="_blank"');
    expect(out).toContain('rel="noopener noreferrer"');
  });
  it('renders then sanitises Markdown with raw HTML in it', () => {
    const out = renderSafeMarkdown('# t\n\n<img src=x onerror=alert(1)>\n\n<script>alert(1)</script>');
    expect(out).toContain('<h1>t</h1>');
    expect(out).not.toMatch(/onerror|<script/i);
  });
});
