import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/*
 * Every relative link and image in README.md and the pages under docs/ must point at a file or directory of the
 * repository, and every heading anchor (`page.md#heading`, `#heading`) at a heading that exists, by GitHub's slug
 * rules. Reads files only: no network, no services.
 */

const root = path.resolve(__dirname, '../..');

/** README.md and every .md under docs/, recursively, relative to the repository's root. */
function documentationPages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) return under(rel);
      return entry.name.endsWith('.md') ? [rel] : [];
    });
  return ['README.md', ...under('docs')];
}

interface Link {
  line: number;
  target: string;
}

/** The text with fenced code blocks blanked out (line numbers kept), so examples inside them are not read. */
function withoutCodeBlocks(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker) {
        fence = marker;
        return '';
      }
      return line;
    }
    if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
      fence = undefined;
    return '';
  });
}

/** A line with its inline code spans blanked out. */
const withoutCodeSpans = (line: string): string =>
  line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));

/** The destination of an inline link starting at `start` (just after `](`), with balanced parentheses. */
function destinationAt(line: string, start: number): string | undefined {
  let depth = 0;
  for (let i = start; i < line.length; i += 1) {
    const c = line[i];
    if (c === '\\') i += 1;
    else if (c === '(') depth += 1;
    else if (c === ')') {
      if (depth === 0) return line.slice(start, i);
      depth -= 1;
    }
  }
  return undefined;
}

/** The URL of a link destination: angle brackets removed, an optional title dropped. */
function urlOf(destination: string): string {
  const trimmed = destination.trim();
  if (trimmed.startsWith('<'))
    return trimmed.slice(1, trimmed.indexOf('>') > 0 ? trimmed.indexOf('>') : undefined);
  return trimmed.split(/\s+/)[0] ?? '';
}

/** Every inline link and image, reference definition and HTML href/src of a markdown text, outside code. */
function linksIn(text: string): Link[] {
  const links: Link[] = [];
  withoutCodeBlocks(text).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const add = (target: string) => links.push({ line: index + 1, target });
    for (let at = line.indexOf(']('); at !== -1; at = line.indexOf('](', at + 2)) {
      const destination = destinationAt(line, at + 2);
      if (destination !== undefined) add(urlOf(destination));
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (definition?.[1]) add(urlOf(definition[1]));
    for (const match of line.matchAll(/<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) {
      if (match[1] !== undefined) add(match[1]);
    }
  });
  return links;
}

/** GitHub's heading anchor: lower case, punctuation dropped (but `-`, `_` and spaces), each space a `-`. */
function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image in a heading anchors by its text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a markdown text defines: its headings' slugs (repeats numbered -1, -2, ...) and HTML ids. */
function anchorsIn(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const addHeading = (heading: string) => {
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  const lines = withoutCodeBlocks(text);
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) addHeading(atx[1] ?? '');
    const previous = lines[index - 1];
    if (
      /^ {0,3}(=+|-+)\s*$/.test(line) &&
      previous !== undefined &&
      previous.trim() !== '' &&
      !/^ {0,3}(#|[-*+]\s|\d+[.)]\s|>|\|)/.test(previous) &&
      !/^ {0,3}(=+|-+)\s*$/.test(previous)
    ) {
      addHeading(previous);
    }
    for (const match of line.matchAll(/<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) {
      if (match[1] !== undefined) anchors.add(match[1]);
    }
  });
  return anchors;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i; // http:, https:, mailto: and any other scheme

interface Problem {
  page: string;
  line: number;
  target: string;
  problem: string;
}

/** Dead relative links and missing heading anchors of the given pages (paths relative to the root). */
function checkPages(pages: string[], read: (rel: string) => string): Problem[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (rel: string) => {
    let anchors = anchorCache.get(rel);
    if (!anchors) {
      anchors = anchorsIn(read(rel));
      anchorCache.set(rel, anchors);
    }
    return anchors;
  };
  const problems: Problem[] = [];
  for (const page of pages) {
    for (const { line, target } of linksIn(read(page))) {
      if (target === '' || EXTERNAL.test(target)) continue;
      const hashAt = target.indexOf('#');
      const pathPart = (hashAt === -1 ? target : target.slice(0, hashAt)).split('?')[0] ?? '';
      const fragment = hashAt === -1 ? undefined : target.slice(hashAt + 1);
      let file = page;
      let isDirectory = false;
      if (pathPart !== '') {
        let decoded: string;
        try {
          decoded = decodeURIComponent(pathPart);
        } catch {
          problems.push({ page, line, target, problem: 'not a valid URL path' });
          continue;
        }
        // A leading / is the repository's root, as GitHub reads it.
        const resolved = decoded.startsWith('/')
          ? path.posix.normalize(decoded.slice(1))
          : path.posix.normalize(path.posix.join(path.posix.dirname(page), decoded));
        if (resolved.startsWith('..') || !existsSync(path.join(root, resolved))) {
          problems.push({ page, line, target, problem: 'no such file or directory in the repository' });
          continue;
        }
        file = resolved.replace(/\/$/, '');
        isDirectory = statSync(path.join(root, file)).isDirectory();
      }
      if (fragment === undefined || fragment === '') continue;
      if (isDirectory || !file.endsWith('.md')) continue;
      let anchor: string;
      try {
        anchor = decodeURIComponent(fragment);
      } catch {
        anchor = fragment;
      }
      if (!anchorsOf(file).has(anchor)) {
        problems.push({ page, line, target, problem: `no heading with the anchor #${anchor} in ${file}` });
      }
    }
  }
  return problems;
}

const readFromDisk = (rel: string) => readFileSync(path.join(root, rel), 'utf8');
const describeProblems = (problems: Problem[]) =>
  problems.map((p) => `${p.page}:${p.line}: ${p.target}: ${p.problem}`);

describe('documentation links', () => {
  it('when README.md and every page under docs/ are read, then every relative link and image points at a file or directory that exists', () => {
    const pages = documentationPages();

    const dead = checkPages(pages, readFromDisk).filter((p) => !p.problem.startsWith('no heading'));

    expect(pages).toContain('README.md');
    expect(pages.some((p) => p.startsWith('docs/spec/'))).toBe(true);
    expect(describeProblems(dead)).toEqual([]);
  });

  it('when a link names a heading anchor of a markdown file, then that file has the heading', () => {
    const missing = checkPages(documentationPages(), readFromDisk).filter((p) =>
      p.problem.startsWith('no heading'),
    );

    expect(describeProblems(missing)).toEqual([]);
  });

  it('when headings carry punctuation, code and repeats, then their anchors follow GitHub slug rules', () => {
    const anchors = anchorsIn(
      [
        '# Business messaging',
        '## Gateway path vs bare Express (target: gateway >= 0.5x)',
        "### The dashboard's browser tests",
        '## Retries, outages and dead letters',
        '## `pnpm bench` and SEND_COMMAND_SIZE',
        '## Notes',
        '## Notes',
        'A setext heading',
        '---',
        '```',
        '# not a heading inside a code block',
        '```',
        '<a id="custom-anchor"></a>',
      ].join('\n'),
    );

    expect([...anchors].sort()).toEqual(
      [
        'business-messaging',
        'gateway-path-vs-bare-express-target-gateway--05x',
        'the-dashboards-browser-tests',
        'retries-outages-and-dead-letters',
        'pnpm-bench-and-send_command_size',
        'notes',
        'notes-1',
        'a-setext-heading',
        'custom-anchor',
      ].sort(),
    );
  });

  it('when a page links to a missing file or heading, then both are reported, and links in code, external links and existing targets are not', () => {
    const pages: Record<string, string> = {
      'docs/page.md': [
        '# Page',
        '## A section',
        'See [the API](api.md), [a dead page](missing.md), [the root](../README.md#two-commands "title").',
        '![a picture](dashboard/gone.png) and [a section](#a-section) and [nowhere](#no-such-heading).',
        '[web](https://example.com/x.md) [mail](mailto:a@example.com) `[in code](code.md)`',
        '```',
        '[in a block](block.md)',
        '```',
        '[ref]: ./missing-too.md',
      ].join('\n'),
      'docs/api.md': '# The API\n',
      'README.md': '# Readme\n\n## Two commands\n',
    };

    const problems = checkPages(['docs/page.md'], (rel) => pages[rel] ?? readFromDisk(rel));

    expect(describeProblems(problems)).toEqual([
      'docs/page.md:3: missing.md: no such file or directory in the repository',
      'docs/page.md:4: dashboard/gone.png: no such file or directory in the repository',
      'docs/page.md:4: #no-such-heading: no heading with the anchor #no-such-heading in docs/page.md',
      'docs/page.md:9: ./missing-too.md: no such file or directory in the repository',
    ]);
  });
});
