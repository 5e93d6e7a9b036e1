import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * CSP for the app. Mail bodies render in sandboxed iframes (srcdoc), hence frame-src 'self'
 * blob: data:. Inline styles are allowed for React style props and the IdP pages; scripts are not.
 * frame-ancestors comes from the FRAME_ANCESTORS allow-list so only named host pages can embed us.
 */
export const securityHeadersPlugin = fp<{ frameAncestors: string[] }>(async (app, opts) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // A srcdoc mail body inherits this policy: without http(s) here 'show images' could never load one.
        // What a body may load is narrowed by its own CSP (sanitize-html.ts) and the server's sanitiser.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:', 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'", ...opts.frameAncestors],
      },
    },
    // frame-ancestors above supersedes X-Frame-Options, which cannot express an allow-list.
    frameguard: opts.frameAncestors.length ? false : { action: 'sameorigin' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: false,
  });
});
