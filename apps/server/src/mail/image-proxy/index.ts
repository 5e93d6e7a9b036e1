/** The image proxy of the reader (see signer.ts): signer, address policy, fetcher, sniffing, route. */
export { IMAGE_PROXY_PATH, ImageUrlSigner, restoreProxiedImageUrls } from './signer.js';
export { isPublicAddress } from '../../core/net/index.js';
export { IMAGE_PROXY_USER_AGENT, ImageFetcher, ImageFetchError, type FetchedImage } from './fetcher.js';
export { sniffImageType } from './sniff.js';
export { imageProxyRoutes } from './image-proxy.routes.js';
