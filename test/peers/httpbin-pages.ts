import { reply, type Reply } from './httpbin-reply';

/** The stand-in's HTML: an index that links around (for crawl checks), a book page, link mazes. */

const page = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${body}\n</body>\n</html>\n`;

/**
 * `/`: a list of the endpoints, as httpbin's front page. One link is broken on purpose, under /cdn-cgi/
 * (where a CDN's e-mail obfuscation lives, which canary-checker's crawl fixture filters out); the others
 * answer 200. A fragment, a mailto: and an external link are there too: a crawler must leave them alone.
 */
export function indexPage(): Reply {
  return reply(
    200,
    page(
      'httpbin stand-in',
      [
        '<h1 id="top">httpbin stand-in</h1>',
        '<p>A local HTTP request and response service for Watchkeeper tests.</p>',
        '<ul>',
        '  <li><a href="/get">/get</a> the request, echoed</li>',
        '  <li><a href="/headers">/headers</a> the request headers</li>',
        '  <li><a href="/html">/html</a> an HTML page</li>',
        '  <li><a href="uuid">/uuid</a> a UUID (a relative link)</li>',
        '  <li><a href="/links/3/0">/links/3/0</a> pages of links</li>',
        '  <li><a href="/cdn-cgi/l/email-protection#5d3e32">support e-mail</a></li>',
        '  <li><a href="#top">back to the top</a>, <a href="mailto:someone@example.org">write</a>, <a href="https://example.org/elsewhere">elsewhere</a></li>',
        '</ul>',
      ].join('\n'),
    ),
  );
}

/** `/html`: a page of prose whose author is Herman Melville (canary-checker's fixtures look for the name). */
export function bookPage(): Reply {
  return reply(
    200,
    page(
      'Moby-Dick',
      [
        '<h1>Herman Melville - Moby-Dick</h1>',
        '<p>A chapter-length stand-in for the novel: a ship leaves Nantucket, its captain after one white whale,',
        'and a sailor who asks to be called by a single name tells the story of the voyage.</p>',
      ].join('\n'),
    ),
  );
}

/** `/links/{n}/{offset}`: page `offset` of `n`, linking to every other page, as httpbin's link maze. */
export function linksPage(count: number, offset: number): Reply {
  const links: string[] = [];
  for (let index = 0; index < count; index++) {
    links.push(index === offset ? `${index}` : `<a href="/links/${count}/${index}">${index}</a>`);
  }
  return reply(200, page('Links', links.join(' ')));
}
