import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody, firstScreenRoute } from '@mailroom/protocol';
import { SESSION_COOKIE } from '../auth/index.js';
import {
  readFirstScreen,
  readInterfaceTexts,
  streamFirstScreen,
  type InterfaceTexts,
} from './first-screen.js';

/** Paths the single-page app never owns; everything else GET falls back to index.html. */
const serverPaths = /^\/(api|auth|oidc|idp|ws|metrics|healthz|sandbox)(\/|$|\?)/;

/**
 * The built app's index.html, read once at start-up with the .br and .gz the build wrote beside it: the history
 * fallback answers from memory, so it cannot fail while a build replaces the files on disk (vite empties the folder
 * first), nor turn a request's Range or If-Match into a partial page or an error.
 */
interface IndexPage {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag: string;
  /** The interface text of each language, for the page a signed-in browser gets (first-screen.ts). */
  texts: InterfaceTexts;
}

function readIndexPage(distDir: string): IndexPage | undefined {
  const read = (name: string) => {
    try {
      return fs.readFileSync(path.join(distDir, name));
    } catch {
      return undefined;
    }
  };
  const body = read('index.html');
  if (!body) return undefined;
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return {
    body,
    br: read('index.html.br'),
    gzip: read('index.html.gz'),
    etag,
    texts: readInterfaceTexts(read),
  };
}

/** The encodings an Accept-Encoding header allows (q above 0), lower-cased. */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

/** Serves the built web app; unknown GET paths get index.html so deep links load the app. */
export async function registerWebApp(app: FastifyInstance, distDir: string) {
  const index = readIndexPage(distDir);
  if (index) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (apps/web/scripts/precompress.mjs).
      preCompressed: true,
      setHeaders: (reply, file) => {
        // Vite puts a content hash in asset names: they never change.
        if (file.includes(`${path.sep}assets${path.sep}`))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const accepts = request.headers.accept ?? '';
    // Every app route gets the app, a last segment with a dot too (a date in a search, an address): only
    // the built files under /assets are files, and one missing there is a 404, never the app.
    if (
      index &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !serverPaths.test(request.url) &&
      !request.url.startsWith('/assets/')
    ) {
      if (accepts === '' || accepts.includes('text/html') || accepts.includes('*/*')) {
        const accepted = acceptedEncodings(request.headers['accept-encoding']);
        reply.header('content-type', 'text/html; charset=utf-8').header('vary', 'accept-encoding, cookie');
        const pathname = request.url.split('?')[0]!;
        if (request.method === 'GET' && firstScreenRoute(pathname) && request.cookies[SESSION_COOKIE]) {
          const read = () =>
            readFirstScreen(app, request, index.texts).catch((err: unknown) => {
              request.log.warn({ err }, 'first screen not read: index.html goes out without it');
              return null;
            });
          const page = streamFirstScreen(index.body.toString('utf8'), read, accepted);
          reply.header('cache-control', 'no-store');
          if (page.encoding) reply.header('content-encoding', page.encoding);
          return reply.send(page.stream);
        }
        reply.header('cache-control', 'no-cache').header('etag', index.etag);
        const match = request.headers['if-none-match'];
        if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === index.etag))
          return reply.status(304).send();
        if (index.br && accepted.has('br')) return reply.header('content-encoding', 'br').send(index.br);
        if (index.gzip && (accepted.has('gzip') || accepted.has('*')))
          return reply.header('content-encoding', 'gzip').send(index.gzip);
        return reply.send(index.body);
      }
    }
    return reply.status(404).send(errorBody('not_found'));
  });
}
