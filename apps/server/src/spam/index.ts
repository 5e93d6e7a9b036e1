/**
 * Spam defence (issue 30): Rspamd's score for incoming mail (`scoreMessage`), where each account puts a checked
 * message (`placeMessage`: its allow and block lists, trusted contacts, DMARC quarantine, the score), the lists'
 * screen, learning from members' moves to and from Junk (a job), and Junk's retention.
 */
export { scoreMessage, learnMessage, type RspamdSettings, type ScanEnvelope } from './rspamd.js';
export { placeMessage, type Placement } from './placement.js';
export { learnFromMove, purgeOldJunk, startSpamJobs, type SpamJobsDeps } from './learning.js';
export { spamRoutes } from './spam.routes.js';
