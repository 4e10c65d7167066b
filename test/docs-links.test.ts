/**
 * Every relative link in README.md and docs/**\/*.md resolves: the file or directory exists, and a
 * `#anchor` names a heading (GitHub's slug rules) or an explicit `<a id>`/`<a name>` of the target
 * Markdown file. External links (a scheme such as https:, mailto:) are not fetched. Code (fenced blocks,
 * indented blocks and inline code spans) is ignored, so a `[x](y)` shown as code is not a link.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type Link = { target: string; line: number };

/** The lines of a Markdown text with code blocks blanked out (line numbers are kept). */
export function proseLines(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  let previousBlank = true;
  let inIndentedCode = false;
  for (const line of lines) {
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = undefined;
      out.push('');
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      out.push('');
      previousBlank = false;
      continue;
    }
    // An indented code block starts after a blank line (inside a list, indentation is continuation).
    const indented = /^( {4}|\t)/.test(line) && line.trim() !== '';
    if (indented && (previousBlank || inIndentedCode) && !inList(out)) {
      inIndentedCode = true;
      out.push('');
      continue;
    }
    inIndentedCode = indented && inIndentedCode;
    previousBlank = line.trim() === '';
    out.push(line);
  }
  return out;
}

/** Whether the prose so far ends inside a list item (its indented lines are text, not code). */
function inList(previous: string[]): boolean {
  for (let i = previous.length - 1; i >= 0; i--) {
    const l = previous[i]!;
    if (l.trim() === '') continue;
    if (/^\s*([-*+]|\d+[.)])\s/.test(l)) return true;
    if (!/^\s/.test(l)) return false;
  }
  return false;
}

/** Inline code spans removed (a run of n backticks closes only at a run of exactly n). */
export function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** Inline links and images `[text](target "title")`, reference definitions `[id]: target`. */
export function linksIn(markdown: string): Link[] {
  const links: Link[] = [];
  // Code spans never cross a blank line, so they are removed per block; a link text broken across
  // the lines of one paragraph is still found. Replacements keep every newline, so offsets map to lines.
  const text = proseLines(markdown)
    .join('\n')
    .split(/(\n[ \t]*\n)/)
    .map((block, i) => (i % 2 === 0 ? withoutCodeSpans(block) : block))
    .join('');
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  const inline = /!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
  for (const m of text.matchAll(inline)) {
    const raw = m[1]!.startsWith('<') ? m[1]!.slice(1, -1) : m[1]!;
    links.push({ target: raw, line: lineAt(m.index!) });
  }
  const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)/gm;
  for (const m of text.matchAll(definition)) {
    const raw = m[1]!.startsWith('<') ? m[1]!.slice(1, -1) : m[1]!;
    links.push({ target: raw, line: lineAt(m.index!) });
  }
  return links;
}

/** GitHub's heading slug: lower case, punctuation and symbols dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: their alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** Every anchor a Markdown file defines: heading slugs (duplicates get -1, -2, …) and `<a id|name>`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (heading: string) => {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  };
  const lines = proseLines(markdown);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) {
      add(atx[1] ?? '');
    } else if (/^ {0,3}(=+|-+)\s*$/.test(line) && i > 0) {
      // A setext heading: a paragraph line underlined (not a list item, table row, quote or heading).
      const above = lines[i - 1]!;
      if (above.trim() !== '' && !/^\s*([-*+>#|]|\d+[.)]\s)/.test(above)) add(above.trim());
    }
    for (const m of line.matchAll(/<a\s+(?:[^>]*?\s)?(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]!);
  }
  return anchors;
}

/** Markdown files to check: README.md and everything under docs/. */
export function documentationFiles(root: string): string[] {
  const files = [join(root, 'README.md')];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && extname(entry.name).toLowerCase() === '.md') files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files;
}

/** The broken relative links of one file, as `file:line: target (reason)`. */
export function brokenLinks(file: string, root: string): string[] {
  const read = (path: string) => readFileSync(path, 'utf8');
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let a = anchorCache.get(path);
    if (!a) anchorCache.set(path, (a = anchorsOf(read(path))));
    return a;
  };
  const where = (line: number) => `${relative(root, file)}:${line}`;
  for (const { target, line } of linksIn(read(file))) {
    if (target === '') {
      problems.push(`${where(line)}: empty link target`);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // external
    const hash = target.indexOf('#');
    const rawPath = hash === -1 ? target : target.slice(0, hash);
    const rawAnchor = hash === -1 ? undefined : target.slice(hash + 1);
    let pathPart: string;
    let anchor: string | undefined;
    try {
      pathPart = decodeURIComponent(rawPath.split('?')[0]!);
      anchor = rawAnchor === undefined ? undefined : decodeURIComponent(rawAnchor);
    } catch {
      problems.push(`${where(line)}: ${target} (malformed percent-encoding)`);
      continue;
    }
    const resolved = pathPart === '' ? file : pathPart.startsWith('/') ? join(root, pathPart) : resolve(dirname(file), pathPart);
    if (!existsSync(resolved)) {
      problems.push(`${where(line)}: ${target} (no such file: ${relative(root, resolved)})`);
      continue;
    }
    if (anchor === undefined) continue;
    if (anchor === '') {
      problems.push(`${where(line)}: ${target} (empty anchor)`);
      continue;
    }
    if (statSync(resolved).isDirectory() || extname(resolved).toLowerCase() !== '.md') continue; // anchors into code (#L10) are not checked
    if (!anchors(resolved).has(anchor)) problems.push(`${where(line)}: ${target} (no heading or anchor "#${anchor}" in ${relative(root, resolved)})`);
  }
  return problems;
}

describe('documentation links', () => {
  describe('the checker', () => {
    it('slugs headings the way GitHub does', () => {
      expect(slug('`POST /v1/vat/calculate` (`full`, `calculate-only`, legacy)')).toBe('post-v1vatcalculate-full-calculate-only-legacy');
      expect(slug('Run mode 1: everything in one process (`npm start`)')).toBe('run-mode-1-everything-in-one-process-npm-start');
      expect(slug('The sales-VAT rule walk')).toBe('the-sales-vat-rule-walk');
      expect(slug('A [linked](x.md) *heading* and `code_name`')).toBe('a-linked-heading-and-code_name');
      expect(slug('Über Größe – 2a/2b')).toBe('über-größe--2a2b');
    });

    it('finds headings, duplicates, setext headings and explicit anchors, never inside code', () => {
      const md = ['# Title', '## Part', '## Part', 'Setext', '======', '<a id="here"></a>', '```', '## Not a heading', '```', '- item', '---'].join('\n');
      expect([...anchorsOf(md)].sort()).toEqual(['here', 'part', 'part-1', 'setext', 'title']);
    });

    it('finds inline links, images, angle-bracket targets and definitions; skips code', () => {
      const md = [
        'See [a](a.md#x), ![img](img.png "t") and [b](<with space.md>).',
        'A link [split',
        'over lines](c.md).',
        '`[not](code.md)` and',
        '```',
        '[not](fenced.md)',
        '```',
        '[ref]: d.md#y',
        '[paren](e(1).md)',
      ].join('\n');
      expect(linksIn(md)).toEqual([
        { target: 'a.md#x', line: 1 },
        { target: 'img.png', line: 1 },
        { target: 'with space.md', line: 1 },
        { target: 'c.md', line: 2 },
        { target: 'e(1).md', line: 9 },
        { target: 'd.md#y', line: 8 },
      ]);
    });

    it('reports a missing file, a missing anchor and an empty target, and accepts the rest', () => {
      const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
      try {
        mkdirSync(join(root, 'docs'));
        writeFileSync(join(root, 'docs', 'a.md'), '# A\n\n## Part one\n\n[back](../README.md#top)\n');
        writeFileSync(
          join(root, 'README.md'),
          [
            '# Top',
            '[ok](docs/a.md#part-one) [same](#top) [dir](docs/) [web](https://example.com/x#y) [mail](mailto:a@b.c)',
            '[gone](docs/b.md)',
            '[bad anchor](docs/a.md#part-two)',
            '[empty]()',
            '`[code](docs/none.md)`',
          ].join('\n'),
        );
        expect(documentationFiles(root).map((f) => relative(root, f))).toEqual(['README.md', join('docs', 'a.md')]);
        expect(brokenLinks(join(root, 'docs', 'a.md'), root)).toEqual([]);
        expect(brokenLinks(join(root, 'README.md'), root)).toEqual([
          'README.md:3: docs/b.md (no such file: docs/b.md)',
          'README.md:4: docs/a.md#part-two (no heading or anchor "#part-two" in docs/a.md)',
          'README.md:5: empty link target',
        ]);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });

  const files = documentationFiles(ROOT);

  it('README.md and docs/ exist and docs/ has Markdown files', () => {
    expect(existsSync(join(ROOT, 'README.md'))).toBe(true);
    expect(files.length).toBeGreaterThan(1);
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))('every relative link in %s resolves', (_name, file) => {
    expect(brokenLinks(file, ROOT)).toEqual([]);
  });
});
