import { useEffect, useMemo, useRef, useState } from 'react';
import { messageDocument } from './sanitise-html';
import styles from './html-body.module.css';

/** Mail laid out wider than the reader (600-px newsletters on a phone) is shrunk to fit, down to half its size. */
const MIN_FIT = 0.5;

/**
 * Fits the message's document to the frame's width and returns the height it then needs. CSS zoom rather than a
 * transform, so layout, text selection and link targets follow; what is still wider at MIN_FIT scrolls sideways.
 */
function fitToWidth(frame: HTMLIFrameElement, root: HTMLElement): number {
  const available = frame.clientWidth;
  root.style.zoom = '';
  const natural = root.scrollWidth;
  const factor = available > 0 && natural > available + 1 ? Math.max(MIN_FIT, available / natural) : 1;
  if (factor < 1) root.style.zoom = String(factor);
  return Math.ceil(root.getBoundingClientRect().height);
}

/**
 * An HTML body in a sandboxed iframe (DESIGN §4): no allow-scripts, so nothing in the message can run;
 * allow-same-origin only so this page can measure the content and size the frame to it; popups so links open in
 * a new tab, escaping the sandbox so the linked site works normally.
 */
export function HtmlBody({
  html,
  title,
  onLink,
}: {
  html: string;
  title: string;
  /** When given, a click on a link is not followed: it is handed here (mail in Junk asks first). */
  onLink?: (href: string) => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const linkHandler = useRef(onLink);
  linkHandler.current = onLink;
  const [height, setHeight] = useState(120);
  const srcDoc = useMemo(() => messageDocument(html, { origin: window.location.origin }), [html]);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let observer: ResizeObserver | undefined;
    const measure = () => {
      const doc = element.contentDocument;
      if (!doc?.documentElement) return;
      setHeight(Math.max(60, fitToWidth(element, doc.documentElement)));
    };
    const onClick = (event: MouseEvent) => {
      const handle = linkHandler.current;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!handle || !link) return;
      event.preventDefault();
      handle((link as HTMLAnchorElement).href);
    };
    const onLoad = () => {
      measure();
      element.contentDocument?.addEventListener('click', onClick);
      observer?.disconnect();
      const body = element.contentDocument?.body;
      // Images arriving late and wrapping text on resize change the height after load.
      if (body && typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(measure);
        observer.observe(body);
      }
    };
    element.addEventListener('load', onLoad);
    // A short srcdoc can finish loading before this effect runs.
    if (element.contentDocument?.readyState === 'complete' && element.contentDocument.body?.childNodes.length)
      onLoad();
    return () => {
      element.removeEventListener('load', onLoad);
      element.contentDocument?.removeEventListener('click', onClick);
      observer?.disconnect();
    };
  }, [srcDoc]);

  return (
    <iframe
      ref={frame}
      className={styles.frame}
      title={title}
      sandbox="allow-popups allow-popups-to-escape-sandbox allow-same-origin"
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      style={{ height }}
    />
  );
}
