/** The product can be embedded in a host page's frame (SPEC §1); cross-origin access to top throws. */
export function isFramed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

/** Tells the host page the mail client has loaded (SPEC §4). The message carries no data, so any origin may read it. */
export function notifyHostLoaded(): void {
  window.parent.postMessage('finish', '*');
}
