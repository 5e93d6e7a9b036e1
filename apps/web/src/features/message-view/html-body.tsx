import { useEffect, useMemo, useRef, useState } from 'react';
import { messageDocument } from './sanitize-html';
import styles from './html-body.module.css';

/**
 * An HTML body in a sandboxed iframe (DESIGN §4): no allow-scripts, so nothing in the message can run;
 * allow-same-origin only so this page can measure the content and size the frame to it; popups so links open in
 * a new tab, escaping the sandbox so the linked site works normally.
 */
export function HtmlBody({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(120);
  const srcDoc = useMemo(() => messageDocument(html, { origin: window.location.origin }), [html]);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let observer: ResizeObserver | undefined;
    const measure = () => {
      const doc = element.contentDocument;
      if (!doc?.documentElement) return;
      setHeight(Math.max(60, doc.documentElement.scrollHeight));
    };
    const onLoad = () => {
      measure();
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
