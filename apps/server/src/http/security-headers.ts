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
        // Nothing remote: a mail's remote images (and a srcdoc mail body inherits this policy) come through
        // the server's image proxy (mail/image-proxy.ts), so the sender never sees the reader's browser.
        imgSrc: ["'self'", 'data:', 'blob:'],
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
