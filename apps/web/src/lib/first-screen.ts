import { FIRST_SCREEN_ELEMENT_ID, type FirstScreenAnswer, type FirstScreenData } from '@mailroom/protocol';

/**
 * What the server wrote into index.html for a signed-in browser (issue 32, cold first screen): the answers the first
 * mail screen asks for (the user, the account, the rid, the folders, the first page of the list) and the interface
 * text, so the first paint waits for no request after the script. A data block, never run (the CSP allows no
 * inline script), read when first asked and then removed. Each part is taken once: a later read of the same address
 * asks the server.
 */
let data: FirstScreenData | undefined;

function read(): FirstScreenData | undefined {
  const element = document.getElementById(FIRST_SCREEN_ELEMENT_ID);
  if (element) {
    try {
      data = JSON.parse(element.textContent!) as FirstScreenData;
    } catch {
      // Not a block the app can read: every request asks the server.
    }
    element.remove();
  }
  return data;
}

/** The server's answer to GET `url` (path and query) written into the page, once; undefined when there is none. */
export function takeFirstScreenAnswer(url: string): FirstScreenAnswer | undefined {
  const answers = read()?.answers;
  const answer = answers?.[url];
  if (answer) delete answers[url];
  return answer;
}

/** The interface text of `language` written into the page, once, if the server expected that language. */
export function firstScreenTexts(language: string): unknown {
  const page = read();
  if (page?.language !== language) return undefined;
  const { texts } = page;
  page.texts = undefined;
  return texts;
}
