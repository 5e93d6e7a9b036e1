/**
 * "Chrome 131 on Windows" from a User-Agent header, for the sign-in log: which browser and system, nothing more.
 * Written here rather than taken from ua-parser-js: the log needs a dozen lines of it, version 2 of that library is
 * AGPL, and a full parser (its device and engine tables) would be most of the security screen's chunk. An agent it
 * does not know (a mail client, a script) is shown as it came, cut short.
 */
const BROWSERS: readonly (readonly [name: string, pattern: RegExp])[] = [
  // Order matters: Edge, Opera and Yandex also say Chrome and Safari; Chrome also says Safari.
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Yandex Browser', /\bYaBrowser\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  // HeadlessChrome: a browser driven by a script (an automated test, a crawler signing in).
  ['Chrome (headless)', /\bHeadlessChrome\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Linux', /\bLinux\b/],
];

const MAX_RAW = 60;

export function summariseUserAgent(userAgent: string): string {
  const agent = userAgent.trim();
  if (!agent) return '—';
  const browser = BROWSERS.find(([, pattern]) => pattern.test(agent));
  const system = SYSTEMS.find(([, pattern]) => pattern.test(agent))?.[0];
  if (!browser) return agent.length > MAX_RAW ? `${agent.slice(0, MAX_RAW - 1)}…` : agent;
  const [name, pattern] = browser;
  const version = pattern.exec(agent)?.[1];
  const label = version ? `${name} ${version}` : name;
  return system ? `${label}, ${system}` : label;
}
