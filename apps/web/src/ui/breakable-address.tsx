import { Fragment } from 'react';

/**
 * An email address that may wrap only where a reader expects it to: after a dot, a hyphen or an underscore, and
 * before the @ — never in the middle of a name. (An address longer than the line even between those points still
 * breaks where it must, by the surrounding overflow-wrap.)
 */
export function BreakableAddress({ address }: { address: string }) {
  const parts = address.split(/(?<=[._-])|(?=@)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
