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

// the page a Node framework answers for a path it has no route for: a one-word title, the
// method and path in a <pre> (written here, in that framework's form)
const unroutedPage = [
  '<!DOCTYPE html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  '<title>Error</title>',
  '</head>',
  '<body>',
  '<pre>Cannot POST /</pre>',
  '</body>',
  '</html>',
  '',
].join('\n');

describe('a reason line quoting an error page', () => {
  it('adds the first line of text when the title is one word', () => {
    expect(describeErrorPage(unroutedPage)).toBe(
      `HTML page "Error": Cannot POST / (${unroutedPage.length} characters)`,
    );
    const crash =
      '<!DOCTYPE html><html><head><title>Error</title><style>pre{x}</style></head><body><pre>TypeError: Cannot read properties of undefined (reading &#39;text&#39;)<br> &nbsp; &nbsp;at /app/node.js:12:30</pre></body></html>';
    expect(describeErrorPage(crash)).toBe(
      `HTML page "Error": TypeError: Cannot read properties of undefined (reading 'text') (${crash.length} characters)`,
    );
  });

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

describe('judgeBotAnswer of a refusal', () => {
  it('asks whether --token is the one the bot checks, naming where the token goes', () => {
    const record = {
      type: 'exchange',
      request: { method: 'POST', url: 'http://127.0.0.1:7000/bot/***' },
      response: { status: 401, body: 'Unauthorized' },
    } as unknown as ExchangeRecord;
    expect(judgeBotAnswer('CLIENT_MESSAGE', record)).toEqual([
      'CLIENT_MESSAGE answered HTTP 401 Unauthorized; the regular answer is HTTP 200 within 3 s (spec 4.3, 7.2, 8); the token is the last path segment (/bot/<token>): is --token the one your bot checks?',
    ]);
  });
});
