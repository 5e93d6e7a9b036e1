import { createElement, type SVGProps } from 'react';

/** An icon as lucide-react's icon modules describe it. */
interface IconData {
  name: string;
  node: readonly (readonly [string, Record<string, string>])[];
}

// A label of its own (aria-*, role, title, or text inside) makes the icon content; otherwise it is decoration.
function labelled(props: Record<string, unknown>, children: unknown): boolean {
  if (children != null) return true;
  return Object.entries(props).some(
    ([key, value]) => value != null && (key.startsWith('aria-') || key === 'role' || key === 'title'),
  );
}

/**
 * lucide-react's icon factory, reduced to what this app uses (DESIGN §5: the mail shell's initial JavaScript):
 * lucide's 24×24 stroke SVG with the class names `lucide lucide-<name>` and any SVG props passed on, hidden from
 * assistive technology unless labelled — without the sizing, stroke and context props (a provider, absolute
 * stroke widths), which nothing here sets and which cost ~1 KB gzipped of runtime in the shell. vite.config.ts
 * points lucide-react's icon modules at it; the icon shapes are lucide-react's own.
 */
export default function createLucideIcon({ name, node }: IconData) {
  function LucideIcon({ className, children, ...rest }: SVGProps<SVGSVGElement>) {
    return createElement(
      'svg',
      {
        xmlns: 'http://www.w3.org/2000/svg',
        width: 24,
        height: 24,
        viewBox: '0 0 24 24',
        fill: 'none',
        stroke: 'currentColor',
        strokeWidth: 2,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: className ? `lucide lucide-${name} ${className}` : `lucide lucide-${name}`,
        ...(labelled(rest, children) ? {} : { 'aria-hidden': 'true' }),
        ...rest,
      },
      ...node.map(([tag, attrs]) => createElement(tag, attrs)),
      children,
    );
  }
  return LucideIcon;
}
