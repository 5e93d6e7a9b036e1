import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  FIRST_SCREEN_ELEMENT_ID,
  LANG_COOKIE,
  SERVER_CLOCK_HEADER,
  SUPPORTED_LANGUAGES,
  detectLanguage,
  firstScreenRoute,
  listPageSize,
  lockedAliasId,
  routePaths,
  routeUrl,
  type AccessResponse,
  type Account,
  type FirstScreenAnswer,
  type FirstScreenData,
  type Folder,
  type FoldersResponse,
  type Language,
} from '@mailroom/protocol';

/** The interface text of each language the build wrote (dist/texts/<language>.json), as JSON text. */
export type InterfaceTexts = Partial<Record<Language, string>>;

export function readInterfaceTexts(read: (name: string) => Buffer | undefined): InterfaceTexts {
  const texts: InterfaceTexts = {};
  for (const language of SUPPORTED_LANGUAGES) {
    const bytes = read(`texts/${language}.json`);
    if (bytes) texts[language] = bytes.toString('utf8');
  }
  return texts;
}

function flatten(folders: readonly Folder[]): Folder[] {
  return folders.flatMap((folder) => [folder, ...flatten(folder.subfolders)]);
}

/**
 * The answers the first mail screen asks for (issue 32, cold first screen), read in-process with the visitor's own
 * request headers, so each is exactly what the API would answer them (the same session checks, alias view and
 * serialisation): the user, the account, the rid, the folders and labels, and the first page of the list the route shows — the
 * Inbox for /mail, the page of /mail/folder/:a_id/:folder/:page. Its address is the one the app computes
 * (protocol's first-screen.ts), so the app finds it. Null when the route shows no folder or the session does not
 * answer: then the page goes out as built.
 */
export async function readFirstScreen(
  app: FastifyInstance,
  request: FastifyRequest,
  texts: InterfaceTexts,
): Promise<FirstScreenData | null> {
  const url = new URL(request.url, 'http://mailroom.invalid');
  const route = firstScreenRoute(url.pathname);
  const cookie = request.headers.cookie;
  if (!route || !cookie) return null;
  const answers: Record<string, FirstScreenAnswer> = {};
  const get = async <T>(address: string): Promise<T | undefined> => {
    const response = await app.inject({
      method: 'GET',
      url: address,
      headers: {
        cookie,
        accept: 'application/json',
        ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
        ...(request.headers['accept-language']
          ? { 'accept-language': request.headers['accept-language'] }
          : {}),
      },
      remoteAddress: request.ip,
    });
    // Only what succeeded: a failure is the app's to meet with its own request (and its own error handling).
    if (response.statusCode !== 200) return undefined;
    const body = response.json<T>();
    answers[address] = { body, clock: Number(response.headers[SERVER_CLOCK_HEADER]) || 0 };
    return body;
  };
  const foldersAddress = routeUrl(routePaths.folders);
  const [user, account, , folders] = await Promise.all([
    get<AccessResponse>(routeUrl(routePaths.access)),
    get<Account>(routeUrl(routePaths.account)),
    get<unknown>(routeUrl(routePaths.rids)),
    get<FoldersResponse>(foldersAddress),
    // The sidebar's labels: drawn beside the first rows.
    get<unknown>(routeUrl(routePaths.labels)),
  ]);
  if (!user || !account) return null;

  let list: { folderId: number; aliasId: string; page: number } | undefined;
  if (route.kind === 'folder') list = route;
  else if (folders) {
    const inbox = flatten(folders.folders).find((folder) => folder.system === 'inbox') ?? folders.folders[0];
    if (inbox) list = { folderId: inbox.id, aliasId: lockedAliasId(user, account) ?? 'all', page: 1 };
  }
  if (list)
    await get(
      routeUrl(routePaths.folderMessages, {
        params: { folder_id: list.folderId },
        query: { a_id: list.aliasId, page: list.page, limit: listPageSize(url.searchParams, account) },
      }),
    );

  const language = detectLanguage({
    search: url.search,
    cookie: request.cookies[LANG_COOKIE] ?? null,
    browser: request.headers['accept-language']?.split(',')[0]?.trim(),
  });
  const text = texts[language];
  return { answers, ...(text ? { language, texts: JSON.parse(text) as unknown } : {}) };
}

/**
 * The first screen's data as a data block (`type="application/json"`: never run, so the CSP's script-src 'self'
 * stands). `<` and the two JavaScript line separators are escaped, so no text in a mail (a subject with
 * `</script>`) can end the block.
 */
export function firstScreenBlock(data: FirstScreenData): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${FIRST_SCREEN_ELEMENT_ID}">${json}</script>`;
}

/**
 * index.html for a signed-in browser, streamed: everything before </body> (the styles, the script and stylesheet
 * links, the preloader) goes out at once, so the browser fetches and compiles the app while the server reads the
 * first screen; the data block and the end follow when `read` settles (without it if it came out null). Compressed
 * per request — brotli at a quality quick enough for that, else gzip — and flushed after the head.
 */
export function streamFirstScreen(
  html: string,
  read: () => Promise<FirstScreenData | null>,
  accepted: Set<string>,
): { stream: Readable; encoding?: 'br' | 'gzip' } {
  const at = html.lastIndexOf('</body>');
  const [head, tail] = at < 0 ? [html, ''] : [html.slice(0, at), html.slice(at)];
  const [stream, encoding] = accepted.has('br')
    ? ([zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }), 'br'] as const)
    : accepted.has('gzip') || accepted.has('*')
      ? ([zlib.createGzip({ level: 6 }), 'gzip'] as const)
      : ([new PassThrough(), undefined] as const);
  // Reading starts once the head is on its way: on PGlite the queries hold the event loop, which would keep the
  // head in the server until they were done.
  const finish = () =>
    setImmediate(
      () =>
        void read().then(
          (first) => stream.end((first ? firstScreenBlock(first) : '') + tail),
          () => stream.end(tail),
        ),
    );
  stream.write(head);
  if ('flush' in stream) stream.flush(finish);
  else finish();
  return { stream, ...(encoding ? { encoding } : {}) };
}
