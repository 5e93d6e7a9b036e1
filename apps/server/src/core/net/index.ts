/** Reaching other hosts: DNS through DNS_SERVERS, which addresses count as public, and a guarded page fetch. */
export { DnsLookupError, openDnsResolver, type DnsResolver, type SrvRecord } from './dns.js';
export { AddressPolicy, isPublicAddress } from './address-policy.js';
export { fetchPublicPage, PageFetchError, type FetchedPage, type PageFetchOptions } from './guarded-fetch.js';
export { openDnsLookup, type DnsLookup, type DnsLookupOptions } from './dns-lookup.js';
