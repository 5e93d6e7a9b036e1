// A message body as the reader, compose and decrypt show it: sanitised HTML in a sandboxed frame, plain text with
// links, the attachment list. One place, so the sanitising rule (DESIGN §4) cannot drift between them.
export { HtmlBody } from './html-body';
export { PlainBody } from './plain-body';
export { AttachmentList, useBlobLinks, type AttachmentLink } from './attachment-list';
export { decodeContent, linkifyText, messageDocument, sanitiseMessageHtml } from './sanitise-html';
