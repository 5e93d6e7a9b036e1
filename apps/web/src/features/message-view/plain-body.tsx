import { linkifyText } from './sanitise-html';

/** A plain-text body as written, with its web addresses made into links that open in a new tab. */
export function PlainBody({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className}>
      {linkifyText(text).map((part, index) =>
        part.kind === 'link' ? (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </div>
  );
}
