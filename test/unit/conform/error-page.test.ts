import { describe, expect, it } from 'vitest';
import { describeErrorPage, errorPageTitle } from '../../../src/http/error-page.js';
import { quote } from '../../../src/conversation/conform/case.js';
import { judgeBotAnswer } from '../../../src/conversation/conform/bot.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

// a debug error page as web frameworks write one: doctype, meta tags, then the exception in
// the title, then many KB of traceback (written here, not taken from a framework)
const debugPage = [
  '<!DOCTYPE html>',
  '<html lang="en">',
  '<head>',
  '  <meta http-equiv="content-type" content="text/html; charset=utf-8">',
  '  <meta name="robots" content="NONE,NOARCHIVE">',
  '  <title>RuntimeError',
  '          at /bot-token</title>',
  '</head>',
  `<body><pre>${'frame\n'.repeat(2000)}</pre></body></html>`,
].join('\n');

describe('errorPageTitle', () => {
  it('reads the title of an HTML document, white space folded', () => {
    expect(errorPageTitle(debugPage)).toBe('RuntimeError at /bot-token');
  });

  it('decodes entities, as a debugger page escapes the quotes of a KeyError', () => {
    const page =
      '<!doctype html>\n<html lang=en>\n<head><title>KeyError: &#x27;message&#x27; &amp; more</title>';
    expect(errorPageTitle(page)).toBe("KeyError: 'message' & more");
  });

  it('reads a page without a head', () => {
    expect(
      errorPageTitle('<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>'),
    ).toBe('500 Internal Server Error');
  });

  it('leaves JSON, plain text, and a page without a title alone', () => {
    expect(errorPageTitle('{"title":"<title>x</title>"}')).toBeUndefined();
    expect(errorPageTitle('Internal Server Error')).toBeUndefined();
    expect(errorPageTitle('<!doctype html><html><body>oops</body></html>')).toBeUndefined();
    expect(errorPageTitle('<!doctype html><title>  </title>')).toBeUndefined();
  });
});

describe('a reason line quoting an error page', () => {
  it('names the page by its title instead of its first bytes', () => {
    expect(quote(debugPage, 80)).toBe(
      `HTML page "RuntimeError at /bot-token" (${debugPage.length} characters)`,
    );
    expect(describeErrorPage('{"result":"ok"}')).toBeUndefined();
    expect(quote('{"result": "ok"}')).toBe('{"result": "ok"}');
  });

  it('tells a bot author which exception answered CLIENT_MESSAGE (spec 4.3)', () => {
    const record = {
      type: 'exchange',
      response: { status: 500, body: debugPage },
    } as unknown as ExchangeRecord;
    expect(judgeBotAnswer('CLIENT_MESSAGE', record)).toMatchInlineSnapshot(`
      [
        "CLIENT_MESSAGE answered HTTP 500 HTML page "RuntimeError at /bot-token" (12251 characters); the regular answer is HTTP 200 within 3 s (spec 4.3, 7.2, 8)",
      ]
    `);
  });
});
